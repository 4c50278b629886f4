//! Where the service's time comes from: injected, so tests (and later the scheduler's tests)
//! move it forward per service instead of sleeping.

use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

/// A source of the current time.
pub trait Clock: Send + Sync + fmt::Debug {
    /// Now, in Unix milliseconds.
    fn now_ms(&self) -> i64;
}

/// The system's wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0)
    }
}

/// A clock that moves only when told to: tests set it and move it forward.
///
/// ```
/// use std::time::Duration;
/// use cajitas::game::{Clock, ManualClock};
/// let c = ManualClock::new(1_000);
/// c.advance(Duration::from_secs(2));
/// assert_eq!(c.now_ms(), 3_000);
/// ```
#[derive(Debug, Default)]
pub struct ManualClock {
    ms: AtomicI64,
}

impl ManualClock {
    /// A clock showing `start_ms` (Unix milliseconds).
    pub fn new(start_ms: i64) -> ManualClock {
        ManualClock {
            ms: AtomicI64::new(start_ms),
        }
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.ms.fetch_add(ms, Ordering::SeqCst);
    }

    /// Sets the clock to `ms` (Unix milliseconds).
    pub fn set(&self, ms: i64) {
        self.ms.store(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.ms.load(Ordering::SeqCst)
    }
}
