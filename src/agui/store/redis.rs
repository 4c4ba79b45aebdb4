//! The Redis Streams backend: one Redis shared by several server processes.

use super::{
    RunLog, RunStatus, StoreError, Stored, append_batch, backend, decode_message, encode_messages,
    encode_start, stored_from,
};
use crate::agui::events::{ChatMessage, Event};
use ::redis::{Client, Connection, RedisResult, Script, Value};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long a run's `touched` key outlives its last touch, in milliseconds.
const TOUCHED_TTL_MS: u64 = 60_000;

/// The key prefix when none is set.
const DEFAULT_PREFIX: &str = "a2ui";

/// How long opening a connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a command may wait for its reply (a blocking read waits this much beyond its own
/// timeout) before the call fails.
const IO_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest one `XREAD BLOCK` waits; a longer wait is several of them.
const MAX_BLOCK: Duration = Duration::from_secs(60);

/// How many idle connections are kept for reuse.
const MAX_IDLE: usize = 16;

/// Appends a batch if the run has not ended and the batch starts right after its last entry.
/// KEYS: the run's stream, its ended flag. ARGV: first seq, "1" if the batch ends the run, then
/// each event's JSON. Replies `{"ok"}`, `{"ended"}` or `{"conflict", last seq}`.
const APPEND: &str = r"
if redis.call('EXISTS', KEYS[2]) == 1 then
  return {'ended'}
end
local last = 0
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #top > 0 then
  last = tonumber(string.match(top[1][1], '^(%d+)-'))
end
local first = tonumber(ARGV[1])
if first ~= last + 1 then
  return {'conflict', string.format('%d', last)}
end
for i = 3, #ARGV do
  redis.call('XADD', KEYS[1], string.format('%d-0', first + i - 3), 'e', ARGV[i])
end
if ARGV[2] == '1' then
  redis.call('SET', KEYS[2], '1')
end
return {'ok'}
";

/// Appends the first batch of a new run, with its claim, if the run has no entry.
/// KEYS: the run's stream, its ended flag, its claim. ARGV: the claim, "1" if the batch ends the
/// run, then each event's JSON. Replies like [`APPEND`]: `{"ok"}`, `{"conflict", last seq}` for
/// a run that has entries, `{"ended"}` for an ended flag left without its stream.
const START: &str = r"
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #top > 0 then
  return {'conflict', string.match(top[1][1], '^(%d+)-')}
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  return {'ended'}
end
for i = 3, #ARGV do
  redis.call('XADD', KEYS[1], string.format('%d-0', i - 2), 'e', ARGV[i])
end
redis.call('SET', KEYS[3], ARGV[1])
if ARGV[2] == '1' then
  redis.call('SET', KEYS[2], '1')
end
return {'ok'}
";

/// Saves messages by id: a known id is replaced in place, a new one appended to the order.
/// KEYS: the thread's hash (id → JSON), its list of ids in order. ARGV: id, JSON, id, JSON, ….
const SAVE_MESSAGES: &str = r"
for i = 1, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then
    redis.call('RPUSH', KEYS[2], ARGV[i])
  end
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
return 1
";

/// A [`RunLog`] in Redis, for several server processes that share runs.
///
/// Each run is a stream, `{prefix}:run:{thread}:{run}`, whose entry ids are `{seq}-0` and whose
/// field `e` holds the event's JSON; `{prefix}:ended:{thread}:{run}` exists once the run has
/// ended; `{prefix}:claim:{thread}:{run}`, a string, holds the claim of a run begun with
/// [`start`](RunLog::start) (no such key for a run begun with `append`);
/// `{prefix}:touched:{thread}:{run}` holds when a client last followed the run from any process
/// ([`touch`](RunLog::touch); it expires a minute after). A thread's messages are a hash, `{prefix}:messages:{thread}` (id → JSON), and a list of
/// their ids in order, `{prefix}:message-order:{thread}`. In keys, `%` and `:` in an id are
/// written `%25` and `%3A`, so that no two (thread, run) pairs share a key. Appends and message
/// saves are Lua scripts, so each is atomic with its checks however many processes write; a
/// start's script sets the claim with the first events.
///
/// Connections: a call takes an idle connection (or opens one), uses it alone and puts it back;
/// up to 16 idle connections are kept. A [`wait_after`](RunLog::wait_after) blocks in
/// `XREAD BLOCK` on the connection it took, so waiting clients never hold up other calls (and
/// each waiting client uses one connection while it waits). A call that fails on a connection
/// drops it; a read that fails on a reused connection is tried once more on a new one (Redis may
/// have restarted), a write is not (it may have been applied).
///
/// Nothing expires: runs and messages stay until deleted (see `docs/storage.md`).
///
/// ```no_run
/// use a2ui_stream::agui::{RedisRunLog, RunLog};
/// use a2ui_stream::agui::events::{Event, RunStarted};
/// use std::sync::Arc;
///
/// let log: Arc<dyn RunLog> =
///     Arc::new(RedisRunLog::open("redis://127.0.0.1:6379/")?.with_prefix("my-app"));
/// log.append("thread-1", "run-1", 1, &[Event::from(RunStarted::new("thread-1", "run-1"))])?;
/// // Any other process with the same URL and prefix sees the run.
/// assert_eq!(log.status("thread-1", "run-1")?.map(|s| s.last_seq), Some(1));
/// # Ok::<(), a2ui_stream::agui::StoreError>(())
/// ```
pub struct RedisRunLog {
    client: Client,
    prefix: String,
    idle: Mutex<Vec<Connection>>,
    append: Script,
    start: Script,
    save_messages: Script,
}

impl fmt::Debug for RedisRunLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisRunLog")
            .field(
                "server",
                &self.client.get_connection_info().addr().to_string(),
            )
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// Whether a call may be tried again on a new connection.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Retry {
    /// A read: trying it twice does no harm.
    Once,
    /// A write: it may have been applied before the connection failed.
    Never,
}

impl RedisRunLog {
    /// Connects to the Redis at `url` (for example `"redis://127.0.0.1:6379/"`; a database
    /// number and a password go in the URL as usual) and checks that it answers. Keys start
    /// with `a2ui:` unless [`with_prefix`](RedisRunLog::with_prefix) says otherwise.
    ///
    /// ```
    /// use a2ui_stream::agui::{RedisRunLog, StoreErrorKind};
    ///
    /// let err = RedisRunLog::open("not a url").unwrap_err();
    /// assert_eq!(err.kind(), StoreErrorKind::Backend);
    /// assert!(err.message().contains("opening Redis"));
    /// ```
    pub fn open(url: &str) -> Result<Self, StoreError> {
        let client = Client::open(url)
            .map_err(|e| StoreError::backend(format!("opening Redis: invalid URL: {e}")))?;
        let log = RedisRunLog {
            client,
            prefix: DEFAULT_PREFIX.to_owned(),
            idle: Mutex::new(Vec::new()),
            append: Script::new(APPEND),
            start: Script::new(START),
            save_messages: Script::new(SAVE_MESSAGES),
        };
        let mut con = log.connect().map_err(|e| log.open_failed(e))?;
        ::redis::cmd("PING")
            .query::<String>(&mut con)
            .map_err(|e| log.open_failed(e))?;
        log.give_back(con);
        Ok(log)
    }

    /// The same log with keys starting `{prefix}:` instead of `a2ui:`, so that several
    /// applications (or test runs) can share one Redis without seeing each other's runs.
    ///
    /// ```no_run
    /// use a2ui_stream::agui::RedisRunLog;
    ///
    /// let log = RedisRunLog::open("redis://127.0.0.1:6379/")?.with_prefix("staging");
    /// # Ok::<(), a2ui_stream::agui::StoreError>(())
    /// ```
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    fn open_failed(&self, e: ::redis::RedisError) -> StoreError {
        StoreError::backend(format!(
            "opening Redis at {}: {e}",
            self.client.get_connection_info().addr()
        ))
    }

    fn run_key(&self, thread_id: &str, run_id: &str) -> String {
        format!(
            "{}:run:{}:{}",
            self.prefix,
            escape(thread_id),
            escape(run_id)
        )
    }

    fn ended_key(&self, thread_id: &str, run_id: &str) -> String {
        format!(
            "{}:ended:{}:{}",
            self.prefix,
            escape(thread_id),
            escape(run_id)
        )
    }

    fn claim_key(&self, thread_id: &str, run_id: &str) -> String {
        format!(
            "{}:claim:{}:{}",
            self.prefix,
            escape(thread_id),
            escape(run_id)
        )
    }

    fn touched_key(&self, thread_id: &str, run_id: &str) -> String {
        format!(
            "{}:touched:{}:{}",
            self.prefix,
            escape(thread_id),
            escape(run_id)
        )
    }

    fn messages_key(&self, thread_id: &str) -> String {
        format!("{}:messages:{}", self.prefix, escape(thread_id))
    }

    fn order_key(&self, thread_id: &str) -> String {
        format!("{}:message-order:{}", self.prefix, escape(thread_id))
    }

    fn connect(&self) -> RedisResult<Connection> {
        let con = self.client.get_connection_with_timeout(CONNECT_TIMEOUT)?;
        con.set_read_timeout(Some(IO_TIMEOUT))?;
        con.set_write_timeout(Some(IO_TIMEOUT))?;
        Ok(con)
    }

    fn idle(&self) -> MutexGuard<'_, Vec<Connection>> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn give_back(&self, con: Connection) {
        let mut idle = self.idle();
        if idle.len() < MAX_IDLE {
            idle.push(con);
        }
    }

    /// Runs `call` on a connection of its own (never holding the pool's lock meanwhile).
    fn with_connection<T>(
        &self,
        retry: Retry,
        call: impl Fn(&mut Connection) -> RedisResult<T>,
    ) -> RedisResult<T> {
        let reused = self.idle().pop();
        let was_reused = reused.is_some();
        let mut con = match reused {
            Some(con) => con,
            None => self.connect()?,
        };
        match call(&mut con) {
            Ok(value) => {
                self.give_back(con);
                Ok(value)
            }
            Err(e) if was_reused && retry == Retry::Once && stale(&e) => {
                drop(con);
                let mut con = self.connect()?;
                let value = call(&mut con)?;
                self.give_back(con);
                Ok(value)
            }
            Err(e) => Err(e),
        }
    }

    /// The run's entries after `after`, at most `limit` (XRANGE from `{after + 1}-0`).
    fn range(&self, key: &str, after: u64, limit: usize) -> RedisResult<Option<Value>> {
        let Some(start) = after.checked_add(1) else {
            return Ok(None);
        };
        self.with_connection(Retry::Once, |con| {
            ::redis::cmd("XRANGE")
                .arg(key)
                .arg(format!("{start}-0"))
                .arg("+")
                .arg("COUNT")
                .arg(count(limit))
                .query(con)
        })
        .map(Some)
    }

    fn ended(&self, thread_id: &str, run_id: &str) -> RedisResult<bool> {
        let key = self.ended_key(thread_id, run_id);
        self.with_connection(Retry::Once, |con| {
            ::redis::cmd("EXISTS").arg(&key).query(con)
        })
    }
}

/// A `COUNT` argument: Redis reads it as a signed 64-bit number.
fn count(limit: usize) -> u64 {
    u64::try_from(limit).map_or(i64::MAX as u64, |n| n.min(i64::MAX as u64))
}

/// Whether an error says the connection itself is gone (as after a Redis restart).
fn stale(e: &::redis::RedisError) -> bool {
    e.is_io_error() || e.is_connection_dropped() || e.is_connection_refusal()
}

/// An id as it appears in a key: `%` and `:` percent-encoded, so the key's parts stay apart.
fn escape(id: &str) -> Cow<'_, str> {
    if !id.contains([':', '%']) {
        return Cow::Borrowed(id);
    }
    let mut out = String::with_capacity(id.len() + 8);
    for c in id.chars() {
        match c {
            '%' => out.push_str("%25"),
            ':' => out.push_str("%3A"),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The text of a string reply.
fn text(value: &Value) -> Option<&str> {
    match value {
        Value::BulkString(bytes) => std::str::from_utf8(bytes).ok(),
        Value::SimpleString(s) => Some(s),
        _ => None,
    }
}

/// The sequence number in a stream entry id `{seq}-0`.
fn seq_of(id: &Value) -> Option<u64> {
    let (seq, _) = text(id)?.split_once('-')?;
    seq.parse().ok()
}

/// Stream entries (`[[id, [field, value, …]], …]`, as XRANGE and XREAD give them) as records.
fn entries(value: &Value) -> Result<Vec<Stored>, String> {
    let entries = match value {
        Value::Nil => return Ok(Vec::new()),
        Value::Array(entries) => entries,
        other => return Err(format!("expected stream entries, got {other:?}")),
    };
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        let Value::Array(parts) = entry else {
            return Err(format!("expected a stream entry, got {entry:?}"));
        };
        let [id, Value::Array(fields)] = parts.as_slice() else {
            return Err(format!("expected a stream entry, got {entry:?}"));
        };
        let seq = seq_of(id).ok_or_else(|| format!("invalid entry id {id:?}"))?;
        let json = fields
            .chunks(2)
            .find_map(|pair| match pair {
                [name, json] if text(name) == Some("e") => text(json),
                _ => None,
            })
            .ok_or_else(|| format!("entry {seq} has no field 'e' with UTF-8 text"))?;
        out.push(Stored {
            seq,
            json: json.to_owned(),
        });
    }
    Ok(out)
}

/// The entries of the one stream an XREAD reply holds (empty for a timeout's nil).
fn xread_entries(value: &Value) -> Result<Vec<Stored>, String> {
    match value {
        Value::Nil => Ok(Vec::new()),
        // RESP2: [[key, entries]].
        Value::Array(streams) => match streams.as_slice() {
            [] => Ok(Vec::new()),
            [Value::Array(stream)] => match stream.as_slice() {
                [_key, found] => entries(found),
                _ => Err(format!("expected [key, entries], got {stream:?}")),
            },
            _ => Err(format!("expected one stream, got {streams:?}")),
        },
        // RESP3: {key: entries}.
        Value::Map(streams) => match streams.as_slice() {
            [] => Ok(Vec::new()),
            [(_key, found)] => entries(found),
            _ => Err(format!("expected one stream, got {streams:?}")),
        },
        other => Err(format!("expected an XREAD reply, got {other:?}")),
    }
}

impl RedisRunLog {
    /// Stores a batch at `first_seq` with the [`APPEND`] script, or, with a claim, at 1 with
    /// the [`START`] script.
    fn store(
        &self,
        thread_id: &str,
        run_id: &str,
        first_seq: u64,
        claim: Option<&str>,
        (jsons, ends): (Vec<String>, bool),
    ) -> Result<Vec<Stored>, StoreError> {
        let failed = |e| backend("appending events", thread_id, Some(run_id), e);
        // Lua numbers are doubles: beyond 2^53 sequence numbers would not be exact.
        const MAX_SEQ: u64 = 1 << 53;
        if first_seq.saturating_add(jsons.len() as u64) > MAX_SEQ {
            return Err(failed("the sequence number is out of range".to_owned()));
        }
        let ended = if ends { "1" } else { "0" };
        let mut invocation = match claim {
            None => {
                let mut invocation = self.append.prepare_invoke();
                invocation
                    .key(self.run_key(thread_id, run_id))
                    .key(self.ended_key(thread_id, run_id))
                    .arg(first_seq)
                    .arg(ended);
                invocation
            }
            Some(claim) => {
                let mut invocation = self.start.prepare_invoke();
                invocation
                    .key(self.run_key(thread_id, run_id))
                    .key(self.ended_key(thread_id, run_id))
                    .key(self.claim_key(thread_id, run_id))
                    .arg(claim)
                    .arg(ended);
                invocation
            }
        };
        for json in &jsons {
            invocation.arg(json);
        }
        let reply: Vec<String> = self
            .with_connection(Retry::Never, |con| invocation.invoke(con))
            .map_err(|e| failed(e.to_string()))?;
        match reply.as_slice() {
            [ok] if ok == "ok" => Ok(stored_from(first_seq, jsons)),
            [ended] if ended == "ended" => Err(StoreError::ended(thread_id, run_id)),
            [conflict, last] if conflict == "conflict" => {
                let last: u64 = last
                    .parse()
                    .map_err(|_| failed(format!("invalid last seq {last:?}")))?;
                Err(StoreError::conflict(
                    thread_id,
                    run_id,
                    last.saturating_add(1),
                    first_seq,
                ))
            }
            other => Err(failed(format!("unexpected reply {other:?}"))),
        }
    }
}

impl RunLog for RedisRunLog {
    fn append(
        &self,
        thread_id: &str,
        run_id: &str,
        first_seq: u64,
        events: &[Event],
    ) -> Result<Vec<Stored>, StoreError> {
        append_batch(thread_id, run_id, events, |batch| {
            self.store(thread_id, run_id, first_seq, None, batch)
        })
    }

    fn start(
        &self,
        thread_id: &str,
        run_id: &str,
        claim: &str,
        events: &[Event],
    ) -> Result<Vec<Stored>, StoreError> {
        let batch = encode_start(thread_id, run_id, events)?;
        self.store(thread_id, run_id, 1, Some(claim), batch)
    }

    fn touch(&self, thread_id: &str, run_id: &str) -> Result<(), StoreError> {
        let key = self.touched_key(thread_id, run_id);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        // The key goes away by itself a minute after the last follower's last touch.
        self.with_connection(Retry::Once, |con| {
            ::redis::cmd("SET")
                .arg(&key)
                .arg(now)
                .arg("PX")
                .arg(TOUCHED_TTL_MS)
                .query::<()>(con)
        })
        .map_err(|e| backend("recording a follower", thread_id, Some(run_id), e))
    }

    fn touched(&self, thread_id: &str, run_id: &str) -> Result<Option<u64>, StoreError> {
        let key = self.touched_key(thread_id, run_id);
        self.with_connection(Retry::Once, |con| ::redis::cmd("GET").arg(&key).query(con))
            .map_err(|e| backend("reading a run's followers", thread_id, Some(run_id), e))
    }

    fn claim(&self, thread_id: &str, run_id: &str) -> Result<Option<String>, StoreError> {
        let key = self.claim_key(thread_id, run_id);
        self.with_connection(Retry::Once, |con| ::redis::cmd("GET").arg(&key).query(con))
            .map_err(|e| backend("reading a run's claim", thread_id, Some(run_id), e))
    }

    fn read_after(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Stored>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let failed = |e| backend("reading events", thread_id, Some(run_id), e);
        let reply = self
            .range(&self.run_key(thread_id, run_id), after, limit)
            .map_err(|e| failed(e.to_string()))?;
        reply.map_or(Ok(Vec::new()), |reply| entries(&reply).map_err(failed))
    }

    fn wait_after(
        &self,
        thread_id: &str,
        run_id: &str,
        after: u64,
        limit: usize,
        timeout: Duration,
    ) -> Result<Vec<Stored>, StoreError> {
        let deadline = Instant::now().checked_add(timeout);
        let now = self.read_after(thread_id, run_id, after, limit)?;
        if !now.is_empty() || limit == 0 {
            return Ok(now);
        }
        let failed = |e| backend("waiting for events", thread_id, Some(run_id), e);
        if self
            .ended(thread_id, run_id)
            .map_err(|e| failed(e.to_string()))?
        {
            return Ok(now);
        }
        let key = self.run_key(thread_id, run_id);
        loop {
            let left = deadline.map_or(MAX_BLOCK, |d| d.saturating_duration_since(Instant::now()));
            if left.is_zero() {
                return Ok(Vec::new());
            }
            let block = left.min(MAX_BLOCK);
            // BLOCK 0 would wait forever: under a millisecond waits one.
            let block_ms = u64::try_from(block.as_millis()).unwrap_or(u64::MAX).max(1);
            let reply = self
                .with_connection(Retry::Once, |con| {
                    con.set_read_timeout(Some(block.saturating_add(IO_TIMEOUT)))?;
                    // Entries after `{after}-0`, including any added since the read above.
                    let reply = ::redis::cmd("XREAD")
                        .arg("COUNT")
                        .arg(count(limit))
                        .arg("BLOCK")
                        .arg(block_ms)
                        .arg("STREAMS")
                        .arg(&key)
                        .arg(format!("{after}-0"))
                        .query::<Value>(con)?;
                    con.set_read_timeout(Some(IO_TIMEOUT))?;
                    Ok(reply)
                })
                .map_err(|e| failed(e.to_string()))?;
            let arrived = xread_entries(&reply).map_err(failed)?;
            if !arrived.is_empty() {
                return Ok(arrived);
            }
        }
    }

    fn status(&self, thread_id: &str, run_id: &str) -> Result<Option<RunStatus>, StoreError> {
        let failed = |e| backend("reading run status", thread_id, Some(run_id), e);
        let run_key = self.run_key(thread_id, run_id);
        let ended_key = self.ended_key(thread_id, run_id);
        let (top, ended): (Value, bool) = self
            .with_connection(Retry::Once, |con| {
                ::redis::pipe()
                    .atomic()
                    .cmd("XREVRANGE")
                    .arg(&run_key)
                    .arg("+")
                    .arg("-")
                    .arg("COUNT")
                    .arg(1)
                    .cmd("EXISTS")
                    .arg(&ended_key)
                    .query(con)
            })
            .map_err(|e| failed(e.to_string()))?;
        let last = entries(&top).map_err(failed)?;
        Ok(last.first().map(|last| RunStatus {
            last_seq: last.seq,
            ended,
        }))
    }

    fn thread_messages(&self, thread_id: &str) -> Result<Vec<ChatMessage>, StoreError> {
        let failed = |e| backend("reading messages", thread_id, None, e);
        let order_key = self.order_key(thread_id);
        let messages_key = self.messages_key(thread_id);
        let (order, mut by_id): (Vec<String>, HashMap<String, String>) = self
            .with_connection(Retry::Once, |con| {
                ::redis::pipe()
                    .atomic()
                    .cmd("LRANGE")
                    .arg(&order_key)
                    .arg(0)
                    .arg(-1)
                    .cmd("HGETALL")
                    .arg(&messages_key)
                    .query(con)
            })
            .map_err(|e| failed(e.to_string()))?;
        order
            .iter()
            .map(|id| {
                let json = by_id
                    .remove(id)
                    .ok_or_else(|| failed(format!("message {id:?} is listed but not stored")))?;
                decode_message(thread_id, id, &json)
            })
            .collect()
    }

    fn save_messages(&self, thread_id: &str, messages: &[ChatMessage]) -> Result<(), StoreError> {
        if messages.is_empty() {
            return Ok(());
        }
        let encoded = encode_messages(thread_id, messages)?;
        let mut invocation = self.save_messages.prepare_invoke();
        invocation
            .key(self.messages_key(thread_id))
            .key(self.order_key(thread_id));
        for (id, json) in &encoded {
            invocation.arg(id).arg(json);
        }
        self.with_connection(Retry::Never, |con| invocation.invoke::<i64>(con))
            .map(drop)
            .map_err(|e| backend("saving messages", thread_id, None, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_keeps_ids_with_colons_apart() {
        assert_eq!(escape("plain-id"), "plain-id");
        assert_eq!(escape("a:b"), "a%3Ab");
        assert_eq!(escape("100%:x"), "100%25%3Ax");
        // Without escaping these two pairs would share the key `…:a:b:c`.
        let pairs = [("a:b", "c"), ("a", "b:c"), ("a%3Ab", "c")];
        let keys: Vec<String> = pairs
            .iter()
            .map(|(t, r)| format!("{}:{}", escape(t), escape(r)))
            .collect();
        assert_eq!(keys, ["a%3Ab:c", "a:b%3Ac", "a%253Ab:c"]);
    }

    #[test]
    fn parses_stream_entries() {
        let entry = |id: &str, json: &str| {
            Value::Array(vec![
                Value::BulkString(id.as_bytes().to_vec()),
                Value::Array(vec![
                    Value::BulkString(b"e".to_vec()),
                    Value::BulkString(json.as_bytes().to_vec()),
                ]),
            ])
        };
        let reply = Value::Array(vec![entry("3-0", "{\"a\":1}"), entry("4-0", "{}")]);
        let stored = entries(&reply).unwrap();
        assert_eq!(
            stored,
            [
                Stored {
                    seq: 3,
                    json: "{\"a\":1}".into()
                },
                Stored {
                    seq: 4,
                    json: "{}".into()
                }
            ]
        );
        let resp2 = Value::Array(vec![Value::Array(vec![
            Value::BulkString(b"k".to_vec()),
            reply.clone(),
        ])]);
        let resp3 = Value::Map(vec![(Value::BulkString(b"k".to_vec()), reply)]);
        assert_eq!(xread_entries(&resp2).unwrap(), stored);
        assert_eq!(xread_entries(&resp3).unwrap(), stored);
        assert_eq!(xread_entries(&Value::Nil).unwrap(), []);
    }

    #[test]
    fn rejects_malformed_entries() {
        let no_field = Value::Array(vec![Value::Array(vec![
            Value::BulkString(b"1-0".to_vec()),
            Value::Array(vec![
                Value::BulkString(b"x".to_vec()),
                Value::BulkString(b"{}".to_vec()),
            ]),
        ])]);
        assert!(entries(&no_field).unwrap_err().contains("no field 'e'"));
        let bad_id = Value::Array(vec![Value::Array(vec![
            Value::BulkString(b"one".to_vec()),
            Value::Array(vec![]),
        ])]);
        assert!(entries(&bad_id).unwrap_err().contains("invalid entry id"));
        assert!(entries(&Value::Int(3)).is_err());
    }
}
