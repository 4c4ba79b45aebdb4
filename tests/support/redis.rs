//! A Redis server of the test's own: `redis-server` on a free port of 127.0.0.1, with nothing
//! saved to disk, stopped when the value is dropped.
//!
//! Where `redis-server` is not installed the tests that need it say so in one line and skip,
//! except under `CI=true`, where that fails them: CI must test the Redis backend.

use std::io::{ErrorKind, Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Once;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The program started: `$REDIS_SERVER` if set, else `redis-server` on the `PATH`.
fn program() -> String {
    std::env::var("REDIS_SERVER").unwrap_or_else(|_| "redis-server".to_owned())
}

/// A running `redis-server`, killed on drop.
pub struct RedisServer {
    child: Child,
    port: u16,
}

impl RedisServer {
    /// Starts a server, or returns `None` after saying (once per test binary) that
    /// `redis-server` is not installed. Under `CI=true` a missing `redis-server` panics.
    pub fn start_or_skip() -> Option<RedisServer> {
        static SKIPPED: Once = Once::new();
        let program = program();
        match Command::new(&program)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
        {
            Ok(_) => {}
            Err(e) if e.kind() == ErrorKind::NotFound => {
                assert!(
                    std::env::var("CI").as_deref() != Ok("true"),
                    "{program} is not installed, and CI must test the Redis backend"
                );
                super::say_once(
                    &SKIPPED,
                    &format!(
                        "skipped: {program} is not installed; the Redis backend is not tested"
                    ),
                );
                return None;
            }
            Err(e) => panic!("running {program} --version: {e}"),
        }
        // Another process may take the port between our check and the server's bind: try a
        // few ports.
        let mut last_error = String::new();
        for _ in 0..3 {
            match RedisServer::start_on(&program, free_port()) {
                Ok(server) => return Some(server),
                Err(e) => last_error = e,
            }
        }
        panic!("could not start {program}: {last_error}");
    }

    fn start_on(program: &str, port: u16) -> Result<RedisServer, String> {
        let child = Command::new(program)
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(std::env::temp_dir())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("spawning: {e}"))?;
        let mut server = RedisServer { child, port };
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if ping(port) {
                return Ok(server);
            }
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!("it exited at once ({status}) on port {port}"));
            }
            if Instant::now() > deadline {
                return Err(format!("no answer to PING on port {port} within 10 s"));
            }
            sleep(Duration::from_millis(20));
        }
    }

    /// Stops the server and starts a new one on the same port (with nothing in it, since
    /// nothing is saved): what clients see when Redis restarts.
    pub fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let program = program();
        let fresh = RedisServer::start_on(&program, self.port)
            .unwrap_or_else(|e| panic!("could not restart {program}: {e}"));
        let old = std::mem::replace(self, fresh);
        // The old child is already reaped; dropping it kills nothing.
        drop(old);
    }

    /// The URL to connect to it.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        // Already gone is fine; either way, reap it.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port nobody listened on a moment ago.
fn free_port() -> u16 {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("binding port 0");
    listener.local_addr().expect("the bound address").port()
}

/// Whether a Redis on `port` answers `PING` with `+PONG`.
fn ping(port: u16) -> bool {
    let Ok(mut stream) = TcpStream::connect((Ipv4Addr::LOCALHOST, port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    if stream.write_all(b"PING\r\n").is_err() {
        return false;
    }
    let mut reply = [0u8; 7];
    stream.read_exact(&mut reply).is_ok() && reply.starts_with(b"+PONG")
}
