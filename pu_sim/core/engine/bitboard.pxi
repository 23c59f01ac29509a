# 12x12 bitboard helpers: one uint16 per row, bit x = column x.
#
# Columns 12-15 of a row are guard bits: anything shifted past column 11 lands
# there and is cut by ROW_BITS, so "off the board" costs one AND.

cdef extern from *:
    int __builtin_popcount(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil
    int __builtin_popcountll(unsigned long long) nogil


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


cdef inline void flood_fill(const uint16_t* seed, const uint16_t* allowed,
                            uint16_t* out) noexcept nogil:
    """out = squares of `allowed` orthogonally connected to `seed` (seed & allowed)."""
    cdef uint16_t nb[GRID]
    cdef int y
    cdef bint changed = True
    cdef uint16_t v
    for y in range(GRID):
        out[y] = seed[y] & allowed[y]
    while changed:
        changed = False
        dilate(out, nb)
        for y in range(GRID):
            v = out[y] | (nb[y] & allowed[y])
            if v != out[y]:
                out[y] = v
                changed = True


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
