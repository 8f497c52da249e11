// An allocator for the builder's big arrays: large blocks come from mmap with
// transparent huge pages requested. A build touches ~200 MB of fresh memory;
// with 4 KiB pages that is ~50k page faults, which cost a third of the build
// on a virtual machine, and TLB misses slow every random access into the
// string table. Small blocks use malloc as usual.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>

namespace aptus::cache::detail {

template <class T>
struct HugeAllocator {
    using value_type = T;
    static constexpr size_t kThreshold = size_t{2} << 20;
    static constexpr size_t kHuge = size_t{2} << 20;

    HugeAllocator() = default;
    template <class U>
    HugeAllocator(const HugeAllocator<U>&) {}

    T* allocate(size_t n) {
        size_t bytes = n * sizeof(T);
        if (bytes < kThreshold) {
            void* p = std::malloc(bytes);
            if (p == nullptr) throw std::bad_alloc();
            return static_cast<T*>(p);
        }
        size_t len = (bytes + kHuge - 1) & ~(kHuge - 1);
        void* p = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        ::madvise(p, len, MADV_HUGEPAGE);
        return static_cast<T*>(p);
    }
    void deallocate(T* p, size_t n) {
        size_t bytes = n * sizeof(T);
        if (bytes < kThreshold) {
            std::free(p);
            return;
        }
        ::munmap(p, (bytes + kHuge - 1) & ~(kHuge - 1));
    }
    template <class U>
    bool operator==(const HugeAllocator<U>&) const { return true; }
};

template <class T>
using HugeVector = std::vector<T, HugeAllocator<T>>;

}  // namespace aptus::cache::detail
