//! Hooks a front end installs to watch the service's background work (its metrics), so
//! that the service itself knows no metrics library.

use std::sync::Arc;

use super::GameService;
use crate::store::{EventKind, EventRow};

/// Told of each due event the scheduler handles: its kind and how late it was handled, in
/// ms (the service's time minus the event's due time; 0 when on time or early).
pub type EventObserver = Arc<dyn Fn(EventKind, i64) + Send + Sync>;

impl GameService {
    /// The scheduler handles `ev` at `now`: its observer
    /// ([`ServiceOptions::event_observer`](super::ServiceOptions)) hears it.
    pub(super) fn event_handled(&self, ev: &EventRow, now: i64) {
        if let Some(observe) = &self.inner.opts.event_observer {
            observe(ev.kind, now.saturating_sub(ev.due_at).max(0));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::game::{
        ChallengeTerms, ChannelRef, ColourChoice, EventScope, ManualClock, ServiceOptions,
        TimeControl, UserRef,
    };

    #[test]
    fn the_observer_hears_how_late_each_event_was_handled() {
        let t0 = 1_800_000_000_000;
        let clock = Arc::new(ManualClock::new(t0));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = Arc::clone(&seen);
        let svc = GameService::open_in_memory(ServiceOptions {
            event_observer: Some(Arc::new(move |kind, lag| {
                s.lock().unwrap().push((kind, lag))
            })),
            ..ServiceOptions::with_clock(clock.clone())
        })
        .unwrap();
        let (white, black) = (UserRef::new(1, "w", false), UserRef::new(2, "b", false));
        let ch = ChannelRef {
            guild: Some(1),
            channel: 5,
        };
        let terms = ChallengeTerms {
            colour: ColourChoice::White,
            time: "5+3".parse::<TimeControl>().unwrap(),
            rated: false,
            variant: crate::game::Variant::Standard,
        };
        svc.challenges()
            .challenge_with(&white, ch, Some(&black), terms)
            .unwrap();
        svc.challenges().accept(&black, ch).unwrap();
        let due = svc
            .clocks()
            .next_due(EventScope::All)
            .unwrap()
            .expect("an event is pending");
        clock.set(due + 4_000);
        svc.clocks().run_round(EventScope::All).unwrap();
        let seen = seen.lock().unwrap().clone();
        assert!(!seen.is_empty());
        assert_eq!(seen[0].1, 4_000, "{seen:?}");
    }
}
