# 12x12 bitboard helpers: one uint16 per row, bit x = column x.
#
# Columns 12-15 of a row are guard bits: anything shifted past column 11 lands
# there and is cut by ROW_BITS, so "off the board" costs one AND.

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

cdef extern from *:
    """
    #define PU_PACKED_ROW_BITS 0x0FFF0FFF0FFF0FFFULL
    """
    # ROW_BITS in each of 4 rows packed into a 64-bit word (pack_board); a C
    # constant, so the compiler folds it into the flood fill's instructions
    const uint64_t PACKED_ROW_BITS "PU_PACKED_ROW_BITS"


cdef inline int popcount16(uint16_t v) noexcept nogil:
    return __builtin_popcount(v)


cdef inline int popcount64(uint64_t v) noexcept nogil:
    return __builtin_popcountll(v)


cdef inline int grid_count(const uint16_t* g) noexcept nogil:
    """Number of set squares."""
    cdef int y, n = 0
    for y in range(GRID):
        n += __builtin_popcount(g[y])
    return n


cdef inline bint grid_any(const uint16_t* g) noexcept nogil:
    cdef int y
    for y in range(GRID):
        if g[y]:
            return True
    return False


cdef inline bint grid_has(const uint16_t* g, int x, int y) noexcept nogil:
    return (g[y] >> x) & 1


cdef inline void grid_set(uint16_t* g, int x, int y) noexcept nogil:
    g[y] |= <uint16_t>(1 << x)


cdef inline void grid_clear_sq(uint16_t* g, int x, int y) noexcept nogil:
    g[y] &= <uint16_t>~(1 << x)


cdef inline void grid_zero(uint16_t* g) noexcept nogil:
    cdef int y
    for y in range(GRID):
        g[y] = 0


cdef inline void grid_copy(uint16_t* dst, const uint16_t* src) noexcept nogil:
    cdef int y
    for y in range(GRID):
        dst[y] = src[y]


cdef inline void dilate(const uint16_t* src, uint16_t* dst) noexcept nogil:
    """dst = squares orthogonally adjacent to src (src itself not included)."""
    cdef int y
    cdef uint16_t v
    for y in range(GRID):
        v = <uint16_t>((src[y] << 1) | (src[y] >> 1))
        if y > 0:
            v |= src[y - 1]
        if y < GRID - 1:
            v |= src[y + 1]
        dst[y] = v & ROW_BITS


cdef inline void pack_board(const uint16_t* g, uint64_t* packed) noexcept nogil:
    """The 12 rows of g as three 64-bit words, rows 4k..4k+3 in word k at 16 bits
    a row (the packed board's layout)."""
    cdef int k
    for k in range(3):
        packed[k] = (<uint64_t>g[4 * k] | (<uint64_t>g[4 * k + 1] << 16)
                     | (<uint64_t>g[4 * k + 2] << 32) | (<uint64_t>g[4 * k + 3] << 48))


cdef inline void unpack_board(const uint64_t* packed, uint16_t* g) noexcept nogil:
    """The 12 rows of three packed words, one uint16 a row."""
    cdef int y
    for y in range(GRID):
        g[y] = <uint16_t>(packed[y >> 2] >> (16 * (y & 3)))


cdef inline uint64_t spread_rows(uint64_t w, uint64_t above, uint64_t below) noexcept nogil:
    """Squares orthogonally adjacent to the 4 rows packed in w (pack_board), given
    the packed words of the 4 rows above and below it (0 at the board's edge)."""
    return (((w << 1) | (w >> 1) | (w << 16) | (w >> 16) | (above >> 48) | (below << 48))
            & PACKED_ROW_BITS)


cdef inline uint64_t vertical_rows(uint64_t w, uint64_t above, uint64_t below) noexcept nogil:
    """Squares directly above or below the 4 rows packed in w (spread_rows' terms)."""
    return (w << 16) | (w >> 16) | (above >> 48) | (below << 48)


cdef inline uint64_t diagonal_rows(uint64_t w, uint64_t above, uint64_t below) noexcept nogil:
    """Squares diagonally next to the 4 rows packed in w (see spread_rows)."""
    cdef uint64_t v = vertical_rows(w, above, below)
    return ((v << 1) | (v >> 1)) & PACKED_ROW_BITS


cdef inline bint grow_step(const uint64_t* f, const uint64_t* a, uint64_t* out) noexcept nogil:
    """out = f and the squares of a orthogonally adjacent to it (packed boards);
    False when that adds nothing."""
    out[0] = f[0] | (spread_rows(f[0], 0, f[1]) & a[0])
    out[1] = f[1] | (spread_rows(f[1], f[0], f[2]) & a[1])
    out[2] = f[2] | (spread_rows(f[2], f[1], 0) & a[2])
    return out[0] != f[0] or out[1] != f[1] or out[2] != f[2]


cdef inline void grow_packed(uint64_t* f, const uint64_t* a) noexcept nogil:
    """Grow f (a packed board within a) to every square of a connected to it.

    One square a step over the 12 rows packed into three 64-bit words: a step
    is a few word operations instead of a pass over 12 rows."""
    cdef uint64_t n[3]
    while grow_step(f, a, n):
        f[0] = n[0]
        f[1] = n[1]
        f[2] = n[2]


cdef inline void flood_fill(const uint16_t* seed, const uint16_t* allowed,
                            uint16_t* out) noexcept nogil:
    """out = squares of `allowed` orthogonally connected to `seed` (seed & allowed)."""
    cdef uint64_t a[3]
    cdef uint64_t f[3]
    cdef int k
    pack_board(allowed, a)
    pack_board(seed, f)
    for k in range(3):
        f[k] &= a[k]
    grow_packed(f, a)
    unpack_board(f, out)


cdef inline int next_region(uint64_t* rest, uint64_t* comp) noexcept nogil:
    """Take the connected region of the first square left in `rest` (a packed
    board) out of it, into comp; its size, 0 once rest is empty."""
    cdef int k
    cdef bint found = False
    for k in range(3):
        comp[k] = 0
        if rest[k] and not found:
            comp[k] = rest[k] & (~rest[k] + 1)     # its lowest square
            found = True
    if not found:
        return 0
    grow_packed(comp, rest)
    for k in range(3):
        rest[k] &= ~comp[k]
    return popcount64(comp[0]) + popcount64(comp[1]) + popcount64(comp[2])


cdef inline int lowest_square(const uint16_t* g, int* x, int* y) noexcept nogil:
    """Find the first set square in row-major order; 0 if the grid is empty."""
    cdef int yy
    for yy in range(GRID):
        if g[yy]:
            y[0] = yy
            x[0] = __builtin_ctz(g[yy])
            return 1
    return 0


cdef inline int count_components(const uint16_t* g, int* largest) noexcept nogil:
    """Number of orthogonally connected components of g; largest size in *largest."""
    cdef uint64_t rest[3]
    cdef uint64_t comp[3]
    cdef int size, n = 0
    pack_board(g, rest)
    largest[0] = 0
    size = next_region(rest, comp)
    while size:
        if size > largest[0]:
            largest[0] = size
        n += 1
        size = next_region(rest, comp)
    return n
