# 12x12 bitboard helpers: one uint16 per row, bit x = column x.
#
# Columns 12-15 of a row are guard bits: anything shifted past column 11 lands
# there and is cut by ROW_BITS, so "off the board" costs one AND.

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil
    int __builtin_popcountll(unsigned long long) nogil

cdef extern from *:
    """
    #define PU_PACKED_ROW_BITS 0x0FFF0FFF0FFF0FFFULL
    """
    # ROW_BITS in each of 4 rows packed into a 64-bit word (pack_rows); a C
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


cdef inline uint64_t pack_rows(const uint16_t* g, int y) noexcept nogil:
    """Rows y..y+3 in one 64-bit word, 16 bits a row (the flood fill's layout)."""
    return (<uint64_t>g[y] | (<uint64_t>g[y + 1] << 16) | (<uint64_t>g[y + 2] << 32)
            | (<uint64_t>g[y + 3] << 48))


cdef inline uint64_t spread_rows(uint64_t w, uint64_t above, uint64_t below) noexcept nogil:
    """Squares orthogonally adjacent to the 4 rows packed in w (pack_rows), given
    the packed words of the 4 rows above and below it (0 at the board's edge)."""
    return (((w << 1) | (w >> 1) | (w << 16) | (w >> 16) | (above >> 48) | (below << 48))
            & PACKED_ROW_BITS)


cdef inline void flood_fill(const uint16_t* seed, const uint16_t* allowed,
                            uint16_t* out) noexcept nogil:
    """out = squares of `allowed` orthogonally connected to `seed` (seed & allowed).

    Grows by one square a step over the 12 rows packed into three 64-bit words:
    one step is a few word operations instead of a pass over 12 rows, and the
    fitted placement values fill the planet once per kept candidate."""
    cdef uint64_t a0 = pack_rows(allowed, 0), a1 = pack_rows(allowed, 4)
    cdef uint64_t a2 = pack_rows(allowed, 8)
    cdef uint64_t f0 = pack_rows(seed, 0) & a0, f1 = pack_rows(seed, 4) & a1
    cdef uint64_t f2 = pack_rows(seed, 8) & a2
    cdef uint64_t n0, n1, n2
    cdef int y
    while True:
        n0 = f0 | (spread_rows(f0, 0, f1) & a0)
        n1 = f1 | (spread_rows(f1, f0, f2) & a1)
        n2 = f2 | (spread_rows(f2, f1, 0) & a2)
        if n0 == f0 and n1 == f1 and n2 == f2:
            break
        f0 = n0
        f1 = n1
        f2 = n2
    for y in range(4):
        out[y] = <uint16_t>(f0 >> (16 * y))
        out[y + 4] = <uint16_t>(f1 >> (16 * y))
        out[y + 8] = <uint16_t>(f2 >> (16 * y))


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
    cdef uint16_t rest[GRID]
    cdef uint16_t seed[GRID]
    cdef uint16_t comp[GRID]
    cdef int x = 0, y = 0, n = 0, size, yy
    grid_copy(rest, g)
    largest[0] = 0
    while lowest_square(rest, &x, &y):
        grid_zero(seed)
        seed[y] = <uint16_t>(1 << x)
        flood_fill(seed, rest, comp)
        size = grid_count(comp)
        if size > largest[0]:
            largest[0] = size
        for yy in range(GRID):
            rest[yy] &= <uint16_t>~comp[yy]
        n += 1
    return n
