// The transposition tables of the native searches.
//
// DictTable: what the Python searches' dict is, without collision loss: open addressing over full keys,
// doubling whenever it is half full, so it keeps every entry as Python's dict does and the search visits
// the same nodes; the search clears it once it holds tt_max_entries entries, as pvs.py clears its dict
// (so it never grows beyond twice that many slots). Used by the principal-variation search, and keyed by
// (afterstate, plies left) by expectimax's chance nodes (a Key other than uint64_t has its own mix()).
//
// SolverTable: Pons' compact table for the exact solver: a fixed power-of-two array indexed by a hash of
// the key, full keys stored, the newer entry replacing the older on a collision, reused by the thread's
// next solve. Its entries are proven
// bounds whichever survive, so the solver's results are Python's; its node counts are not (Python keeps
// every entry until its dict is full, then the newer half).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include "core/budget.hpp"
#ifdef __linux__
#include <sys/mman.h>
#endif

namespace tactician {

// What a DictTable's steps that cannot poll the clock cost, measured on this project's 2-core machine:
// doubling, 130-160 ns an entry (fresh pages and the re-insertion: 75 ms at half a million); clearing,
// about 6 ns a slot; freeing it when the search ends, 3.3 ns a slot (7 ms for the 2 million slots of a
// second's search), time the search keeps in hand at every poll.
constexpr double TABLE_GROW_SECONDS_PER_ENTRY = 2e-7, TABLE_CLEAR_SECONDS_PER_SLOT = 1e-8;
constexpr double TABLE_FREE_SECONDS_PER_SLOT = 5e-9;

// An allocator that asks for huge pages (Linux's transparent ones) for arrays of 2 MB or more: a table's
// probes land anywhere in it, and with 4 KB pages nearly every probe of a large table also misses the TLB.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t HUGE_PAGE = size_t(1) << 21;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < HUGE_PAGE) return static_cast<T*>(::operator new(bytes));
    const size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void* p = std::aligned_alloc(HUGE_PAGE, rounded);
    if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < HUGE_PAGE)
      ::operator delete(p);
    else
      std::free(p);
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const HugePageAllocator<U>&) const { return false; }
};

// The tables' arrays: a vector whose large buffers sit on huge pages.
template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

inline uint64_t mix(uint64_t key) { return key * 0x9E3779B97F4A7C15ull; }

inline int log2_at_least(uint64_t n) {
  int bits = 0;
  while ((uint64_t(1) << bits) < n) ++bits;
  return bits;
}

template <class Entry, class Key = uint64_t>
class DictTable {
 public:
  DictTable() { resize(10, nullptr); }

  size_t size() const { return count_; }
  size_t slots() const { return slots_.size(); }
  // Whether the next store of a new key doubles the table (a rehash of every entry, which cannot poll).
  bool grows_next() const { return 2 * (count_ + 1) > slots_.size(); }

  const Entry* find(const Key& key) const {
    for (size_t i = index(key);; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (!slot.used) return nullptr;
      if (slot.key == key) return &slot.entry;
    }
  }

  // Insert or overwrite. `budget`, if given, may stop a doubling halfway (Timeout) once it is cancelled:
  // filling and re-inserting a large table takes tens of milliseconds, longer than a cancelled search may
  // run on. Stopped while the new slots are filled, the table is as it was; while the entries are
  // re-inserted, it keeps those re-inserted (the search is over either way).
  void store(const Key& key, const Entry& entry, const Budget* budget = nullptr) {
    if (2 * (count_ + 1) > slots_.size()) resize(bits_ + 1, budget);
    for (size_t i = index(key);; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (!slot.used) {
        slot = {key, entry, true};
        ++count_;
        return;
      }
      if (slot.key == key) {
        slot.entry = entry;
        return;
      }
    }
  }

  void clear() {
    for (Slot& slot : slots_) slot.used = false;
    count_ = 0;
  }

 private:
  struct Slot {
    Key key;
    Entry entry;
    bool used;
  };

  size_t index(const Key& key) const { return size_t(mix(key) >> (64 - bits_)); }

  static constexpr size_t CANCEL_POLL_SLOTS = 4096;  // a doubling looks at the cancellation this often

  void resize(int bits, const Budget* budget) {
    const size_t n = size_t(1) << bits;
    HugeVector<Slot> old;  // first the new slots, filled a few pages at a time (their first touch is most of
    old.reserve(n);        // the cost), then, swapped with the table's, the old ones
    while (old.size() < n) {
      if (budget != nullptr && budget->cancelled()) throw Timeout{};
      old.insert(old.end(), std::min(16 * CANCEL_POLL_SLOTS, n - old.size()), Slot{Key{}, Entry{}, false});
    }
    old.swap(slots_);
    bits_ = bits;
    mask_ = n - 1;
    count_ = 0;
    for (size_t i = 0; i < old.size(); ++i) {
      if (budget != nullptr && (i & (CANCEL_POLL_SLOTS - 1)) == 0 && budget->cancelled()) throw Timeout{};
      if (old[i].used) store(old[i].key, old[i].entry);
    }
  }

  HugeVector<Slot> slots_;
  int bits_ = 0;
  size_t mask_ = 0, count_ = 0;
};

template <class Entry>
class SolverTable {
 public:
  // The capacity rounded up to a power of two (at least 2^10 slots; 0: no table, never to be used). The
  // slots are the calling thread's, kept from one solve to the next (a new generation empties them at
  // once): allocating and clearing megabytes would cost a short solve more than its search.
  explicit SolverTable(int64_t capacity) : store_(thread_store()) {
    if (capacity <= 0) return;
    int bits = log2_at_least(uint64_t(capacity < 1024 ? 1024 : capacity));
    shift_ = 64 - bits;
    if (store_.slots.size() != (size_t(1) << bits) || ++store_.generation == 0) {
      store_.slots.assign(size_t(1) << bits, Slot{});
      store_.generation = 1;
    }
    generation_ = store_.generation;
    slots_ = store_.slots.data();
  }

  const Entry* find(uint64_t key) const {
    const Slot& slot = slots_[mix(key) >> shift_];
    return slot.key == key && slot.generation == generation_ ? &slot.entry : nullptr;
  }
  void store(uint64_t key, const Entry& entry) { slots_[mix(key) >> shift_] = {key, entry, generation_}; }
  // The entry in `key`'s slot whatever its key, or nothing when the slot is empty: what a store would
  // replace.
  const Entry* occupant(uint64_t key) const {
    const Slot& slot = slots_[mix(key) >> shift_];
    return slot.generation == generation_ ? &slot.entry : nullptr;
  }
  // Start loading a key's slot: the misses of several keys then overlap (the slots lie far apart).
  void prefetch(uint64_t key) const { __builtin_prefetch(&slots_[mix(key) >> shift_]); }

 private:
  struct Slot {
    uint64_t key = 0;
    Entry entry{};
    uint16_t generation = 0;  // 0: never written
  };
  struct Store {
    HugeVector<Slot> slots;
    uint16_t generation = 0;
  };
  static Store& thread_store() {
    static thread_local Store store;
    return store;
  }

  Store& store_;
  Slot* slots_ = nullptr;
  uint16_t generation_ = 0;
  int shift_ = 0;
};

}  // namespace tactician
