# Per-game random numbers: xoshiro256** seeded through splitmix64.
#
# A game's stream is a pure function of (root key, game index, stream id), so
# results never depend on batch size, n_jobs or order of completion.  Seeds are
# hashed, never used raw (numpy's parallel.rst explains why).

cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    """Next value of a splitmix64 sequence (used only to seed)."""
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void rng_seed(Rng_t* rng, uint64_t k0, uint64_t k1, uint64_t index,
                          uint64_t stream) noexcept nogil:
    """Seed from a 128-bit root key, a game index and a stream id."""
    cdef uint64_t x = k0 ^ splitmix64(&k1)
    cdef uint64_t y = index * 0xD1B54A32D192ED03ULL + stream * 0x8CB92BA72F3D8DD7ULL
    x ^= splitmix64(&y)
    cdef int i
    for i in range(4):
        rng.s[i] = splitmix64(&x)


cdef inline uint64_t rotl(uint64_t v, int k) noexcept nogil:
    return (v << k) | (v >> (64 - k))


cdef inline uint64_t rng_next(Rng_t* rng) noexcept nogil:
    """xoshiro256**: 64 random bits."""
    cdef uint64_t* s = rng.s
    cdef uint64_t result = rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result


cdef inline uint32_t rng_below(Rng_t* rng, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n) without modulo bias (Lemire's method)."""
    cdef uint64_t m = (rng_next(rng) >> 32) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>(-n)) % n
        while low < threshold:
            m = (rng_next(rng) >> 32) * <uint64_t>n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline double rng_unit(Rng_t* rng) noexcept nogil:
    """Uniform double in [0, 1)."""
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef inline void shuffle_u8(Rng_t* rng, uint8_t* a, int n) noexcept nogil:
    """Fisher-Yates shuffle of n bytes."""
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
