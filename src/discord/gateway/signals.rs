//! The process's termination signals: SIGTERM and SIGINT, listened for before anything slow
//! starts, so that a signal that arrives while the bot starts waits for the shutdown.

/// The process's termination signals, registered once: a signal received after
/// [`Signals::listen`] waits for [`Signals::next`], however late that is called.
pub struct Signals {
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    int: Option<tokio::signal::unix::Signal>,
}

impl Signals {
    pub fn listen() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let term = signal(SignalKind::terminate());
            let int = signal(SignalKind::interrupt());
            if let Err(e) = term.as_ref().and(int.as_ref()) {
                tracing::warn!(error = %e, "cannot listen for a termination signal");
            }
            Signals {
                term: term.ok(),
                int: int.ok(),
            }
        }
        #[cfg(not(unix))]
        {
            Signals {}
        }
    }

    /// The name of the next signal received.
    pub async fn next(&mut self) -> &'static str {
        #[cfg(unix)]
        {
            async fn recv(s: &mut Option<tokio::signal::unix::Signal>) {
                match s {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending().await,
                }
            }
            tokio::select! {
                () = recv(&mut self.int) => "SIGINT",
                () = recv(&mut self.term) => "SIGTERM",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "SIGINT"
        }
    }
}
