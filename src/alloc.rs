//! How the bot asks its allocator to hold memory, set once when `cajitas run` starts.
//!
//! Under load the bot allocates many short-lived buffers of 64 KiB and more: each move's PNG
//! board (about 55 KiB, grown to 64 and 128 KiB while it is encoded), each final message's
//! GIF (about 110 KiB), HTTP bodies. glibc's malloc serves them from its arenas (one per
//! thread that allocates, up to eight per core) once its mmap threshold has risen: the
//! threshold starts at 128 KiB and, each time a mapped chunk is freed, rises to that chunk's
//! size (up to 32 MiB). A large buffer freed in an arena leaves a hole that small, long-lived
//! chunks (futures, cached rows) soon split, so the arena cannot give the pages back and
//! keeps its peak: under the sustained load of `benches/discord.rs` (100 games in flight)
//! four arenas held about 15 MiB for about 13 MiB of live heap.
//!
//! Two fixed thresholds instead ([`tune_for_the_bot`]): every allocation of
//! [`MMAP_THRESHOLD`] or more is a mapping of its own, returned to the system when freed;
//! and an arena whose free top grows past [`TRIM_THRESHOLD`] gives it back. The bot's peak RSS
//! in that load went from 37.7–39.5 MB to 35.1–36.7 MB (README, "The bot under load"), its
//! throughput within the runs' spread. Other allocators and other C libraries are left as
//! they are.

/// Allocations of this size or more get a mapping of their own (glibc's `M_MMAP_THRESHOLD`).
pub const MMAP_THRESHOLD: usize = 64 * 1024;

/// An arena gives back its free top past this size (glibc's `M_TRIM_THRESHOLD`).
pub const TRIM_THRESHOLD: usize = 128 * 1024;

/// Sets the two thresholds (glibc on Linux; elsewhere nothing). Returns whether both were
/// taken.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn tune_for_the_bot() -> bool {
    // SAFETY: mallopt takes two integers, touches only malloc's own parameters (under its
    // lock), and may be called at any time from any thread.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD as libc::c_int) == 1
            && libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD as libc::c_int) == 1
    }
}

/// Sets the two thresholds (glibc on Linux; elsewhere nothing). Returns whether both were
/// taken.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn tune_for_the_bot() -> bool {
    false
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    /// Whether malloc gave `buffer` a mapping of its own: a mapped block is whole pages less
    /// its 16-byte header, an arena's block the request rounded to 16 bytes plus 8.
    #[allow(unsafe_code)]
    fn mapped(buffer: &[u8]) -> bool {
        // SAFETY: the pointer is the start of a live block that malloc returned (a Vec of
        // bytes is allocated by the system allocator with malloc).
        let usable = unsafe { libc::malloc_usable_size(buffer.as_ptr() as *mut libc::c_void) };
        usable % 4096 == 4096 - 16
    }

    /// The probe: two 1 MiB buffers, the first freed before the second; true when both got a
    /// mapping of their own. glibc's default raises its threshold to the size of a mapped
    /// block freed, so there the second comes from an arena (and stays there when freed).
    fn two_large_buffers_mapped() -> bool {
        let size = 1024 * 1024;
        let first = std::hint::black_box(vec![1u8; size]);
        let first_mapped = mapped(&first);
        drop(first);
        let second = std::hint::black_box(vec![1u8; size]);
        first_mapped && mapped(&second)
    }

    /// Whether this test binary was started for `name` alone (by [`probe_in_a_child`]):
    /// malloc's state is the whole process's, so the probes run in a process of their own.
    fn alone(name: &str) -> bool {
        let args: Vec<String> = std::env::args().collect();
        args.iter().any(|a| a == "--exact") && args.iter().any(|a| a == name)
    }

    #[test]
    #[ignore = "run in a child process by a_large_buffer_freed_does_not_raise_the_threshold"]
    fn probe_tuned() {
        if alone("alloc::tests::probe_tuned") {
            assert!(super::tune_for_the_bot());
            assert!(two_large_buffers_mapped(), "tuned: both buffers mapped");
        }
    }

    #[test]
    #[ignore = "run in a child process by a_large_buffer_freed_does_not_raise_the_threshold"]
    fn probe_default() {
        if alone("alloc::tests::probe_default") {
            assert!(
                two_large_buffers_mapped(),
                "glibc's default: both buffers mapped"
            );
        }
    }

    /// Runs the probe `probe` in a child process; whether it passed.
    fn probe_in_a_child(probe: &str) -> bool {
        let name = format!("alloc::tests::{probe}");
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", &name, "--ignored", "--test-threads=1"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("1 passed") || stdout.contains("1 failed"),
            "{stdout}"
        );
        out.status.success()
    }

    #[test]
    fn a_large_buffer_freed_does_not_raise_the_threshold() {
        assert!(
            probe_in_a_child("probe_tuned"),
            "tuned: both buffers mapped"
        );
        // The probe tells the two apart: glibc's default fails it.
        assert!(
            !probe_in_a_child("probe_default"),
            "glibc's default keeps the second in an arena"
        );
    }
}
