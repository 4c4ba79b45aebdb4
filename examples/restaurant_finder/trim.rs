//! Gives the memory a load used back to the system once the server is idle again.
//!
//! The system allocator (glibc's malloc) keeps the memory its threads freed in their arenas for
//! reuse, so after a thousand runs the server would go on holding what they needed at their
//! peak. Once no run is open for a second, [`Trimmer`] asks it to return the free pages
//! (`malloc_trim`). Doing this only when idle costs nothing during a load; trimming every second
//! under load nearly doubled the time to a run's first activity (docs/performance.md, "Server
//! load").

use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// How long the server must stay idle before its free memory is returned.
const QUIET: Duration = Duration::from_secs(1);

/// Told when the last open run ends; trims once the server has stayed idle for [`QUIET`].
#[derive(Clone)]
pub struct Trimmer {
    idle: Arc<Notify>,
}

impl Trimmer {
    /// Starts the trimming task; `is_idle` says whether no run is open.
    pub fn start(is_idle: impl Fn() -> bool + Send + 'static) -> Trimmer {
        let idle = Arc::new(Notify::new());
        let told = idle.clone();
        tokio::spawn(async move {
            loop {
                told.notified().await;
                tokio::time::sleep(QUIET).await;
                if is_idle() {
                    let _ = tokio::task::spawn_blocking(release).await;
                }
            }
        });
        Trimmer { idle }
    }

    /// The last open run has ended.
    pub fn went_idle(&self) {
        self.idle.notify_one();
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn release() {
    unsafe extern "C" {
        /// glibc: returns free memory at the top of the heap and in every arena to the system.
        fn malloc_trim(pad: usize) -> i32;
    }
    // SAFETY: `malloc_trim` takes a plain integer and only walks glibc's own allocator state,
    // under its own locks; it is safe to call from any thread at any time.
    unsafe {
        malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn release() {}
