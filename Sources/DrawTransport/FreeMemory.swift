import CSysShim

/// The allocator's freed memory, given back to the kernel.
///
/// Why: glibc keeps what a thread frees in that thread's arena, resident, for the thread to
/// reuse, and once a large block has been freed it serves blocks up to that size from the arenas
/// too instead of mapping them apart. After a large one-off job on one thread (an uploaded list's
/// parse: its body, users and tables, tens of MiB), that memory stays in the process's RSS while
/// the next step (storing the list, on another thread) takes as much again (issue 31: 4.0x the
/// body where the live memory never exceeded 2.3x).
package enum FreeMemory {
    /// Gives every arena's free pages back (`malloc_trim(0)`); a few milliseconds for tens of MiB,
    /// so only after large one-off work. True if any were given back.
    @discardableResult
    package static func release() -> Bool {
        ldsys_release_free_memory() != 0
    }
}
