//! The fleet load: N flows over C threads through one URL (the balancer),
//! with per-leg records folded into the figures the fleet test asserts.

use crate::flow::{self, End, FlowOpts, FlowReport};
use crate::http::{HttpClient, Url};
use mrtr_core::client::CallMethod;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What to run.
#[derive(Debug, Clone)]
pub struct LoadOpts {
    /// The balancer's MCP endpoint.
    pub url: Url,
    /// Flows to run.
    pub flows: usize,
    /// Worker threads (flows in flight at once).
    pub concurrency: usize,
    /// Flow starts per second over all threads; 0 = as fast as possible.
    pub rate: f64,
    /// One flow in `report_every` is `generate_report`, the rest
    /// `update_work_item`.
    pub report_every: usize,
    /// Bearer token sent on every leg (the demo binds it as principal).
    pub bearer: Option<String>,
    /// Per-read timeout.
    pub timeout: Duration,
    /// How each flow is driven.
    pub flow: FlowOpts,
    /// A file rewritten about every 100 ms with `started completed
    /// watermark`: flows are numbered in start order, and every flow below
    /// the watermark has ended (so an operator can wait until no flow that
    /// started before some moment is still running).
    pub progress: Option<String>,
    /// Every instance's own MCP endpoint (behind the balancer): the spent
    /// token of one flow in `replay_every` is replayed to each of them.
    pub replay_to: Vec<Url>,
    /// Replay one completed flow's spent token in this many (0: none).
    pub replay_every: usize,
}

/// What the replays of spent tokens met.
#[derive(Debug, Default)]
struct Replays {
    /// Replays that got an answer.
    tried: AtomicUsize,
    /// Of those, sent to another instance than the one that spent the
    /// token.
    tried_elsewhere: AtomicUsize,
    /// Answered with the frozen -32602 invalid-state error.
    refused: AtomicUsize,
    /// Answered with a result: the token worked twice.
    accepted: AtomicUsize,
    /// Answered with another error.
    other_error: AtomicUsize,
    /// No answer (the instance was down: killed or restarting).
    unanswered: AtomicUsize,
}

impl Replays {
    /// Replays `bytes` (spent on `spent_on`) to every client.
    fn replay(&self, clients: &mut [(String, HttpClient)], bytes: &[u8], spent_on: Option<&str>) {
        use crate::transport::Transport;
        for (authority, client) in clients.iter_mut() {
            let mut verdict = None;
            let r = client.exchange(bytes, &mut |msg| {
                verdict = Some(classify(msg));
                true
            });
            let Some(v) = verdict.filter(|_| r.is_ok()) else {
                self.unanswered.fetch_add(1, Ordering::Relaxed);
                continue;
            };
            self.tried.fetch_add(1, Ordering::Relaxed);
            if spent_on != Some(authority.as_str()) {
                self.tried_elsewhere.fetch_add(1, Ordering::Relaxed);
            }
            match v {
                ReplayVerdict::Refused => &self.refused,
                ReplayVerdict::Accepted => &self.accepted,
                ReplayVerdict::OtherError => &self.other_error,
            }
            .fetch_add(1, Ordering::Relaxed);
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReplayVerdict {
    Refused,
    Accepted,
    OtherError,
}

/// What a server's answer to a replayed leg says.
fn classify(msg: &[u8]) -> ReplayVerdict {
    let Some(v) = mrtr_core::json::parse(msg).ok().and_then(|v| v.as_object()) else {
        return ReplayVerdict::OtherError;
    };
    if v.get("result").is_some() {
        return ReplayVerdict::Accepted;
    }
    match v
        .get("error")
        .and_then(|e| e.as_object())
        .and_then(|e| e.get("code"))
        .and_then(|c| c.as_i64())
    {
        Some(-32602) => ReplayVerdict::Refused,
        _ => ReplayVerdict::OtherError,
    }
}

/// Which tool a flow calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// `update_work_item` resolving a bug, answered `Duplicate`: two
    /// question rounds, the first answer carried in `requestState`.
    UpdateWorkItem,
    /// `generate_report`: two state-only rounds (the server sheds load),
    /// then the report.
    GenerateReport,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::UpdateWorkItem => "update_work_item",
            Kind::GenerateReport => "generate_report",
        }
    }

    fn params(self, n: usize) -> Vec<u8> {
        match self {
            Kind::UpdateWorkItem => format!(
                r#"{{"name":"update_work_item","arguments":{{"workItemId":{},"fields":{{"System.State":"Resolved"}}}}}}"#,
                1000 + n
            ),
            Kind::GenerateReport => format!(
                r#"{{"name":"generate_report","arguments":{{"topic":"load {}"}}}}"#,
                n % 7
            ),
        }
        .into_bytes()
    }
}

/// The driver's verdict.
pub struct Summary {
    /// Human-readable report.
    pub text: String,
    /// `key=value` lines for scripts.
    pub kv: String,
    /// Whether every flow completed and no requestState was rejected.
    pub ok: bool,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

/// Runs the load and folds the reports.
pub fn run(opts: &LoadOpts) -> Summary {
    let next_flow = Arc::new(AtomicUsize::new(0));
    let completed = Arc::new(AtomicUsize::new(0));
    let ids = Arc::new(AtomicI64::new(1));
    let reports: Arc<Mutex<Vec<(Kind, FlowReport)>>> = Arc::new(Mutex::new(Vec::new()));
    let replays = Arc::new(Replays::default());
    let started_at = Instant::now();
    let stop_progress = Arc::new(AtomicU64::new(0));
    let in_flight: Arc<Mutex<BTreeSet<usize>>> = Arc::new(Mutex::new(BTreeSet::new()));
    let progress = opts.progress.clone().map(|path| {
        let (next_flow, completed, stop, in_flight) = (
            next_flow.clone(),
            completed.clone(),
            stop_progress.clone(),
            in_flight.clone(),
        );
        let total = opts.flows;
        std::thread::spawn(move || loop {
            // The set and the counter are read under the lock that workers
            // hold while claiming a number and entering the set, so the
            // watermark never passes a running flow.
            let Ok((lowest, started)) = in_flight.lock().map(|set| {
                (
                    set.iter().next().copied(),
                    next_flow.load(Ordering::SeqCst).min(total),
                )
            }) else {
                break;
            };
            let done = completed.load(Ordering::Relaxed);
            let watermark = lowest.unwrap_or(started);
            let tmp = format!("{path}.tmp");
            if std::fs::write(&tmp, format!("{started} {done} {watermark}\n")).is_ok() {
                let _ = std::fs::rename(&tmp, &path);
            }
            if stop.load(Ordering::Relaxed) != 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        })
    });
    let mut handles = Vec::new();
    for t in 0..opts.concurrency.max(1) {
        let (next_flow, completed, ids, reports, in_flight, replays) = (
            next_flow.clone(),
            completed.clone(),
            ids.clone(),
            reports.clone(),
            in_flight.clone(),
            replays.clone(),
        );
        let opts = opts.clone();
        handles.push(std::thread::spawn(move || {
            let mut client = HttpClient::new(
                opts.url.clone(),
                opts.bearer.clone(),
                opts.timeout,
                opts.flow.limits.wire.json.max_bytes,
            );
            let mut replay_clients: Vec<(String, HttpClient)> = opts
                .replay_to
                .iter()
                .map(|u| {
                    (
                        u.authority.clone(),
                        HttpClient::new(
                            u.clone(),
                            opts.bearer.clone(),
                            opts.timeout,
                            opts.flow.limits.wire.json.max_bytes,
                        ),
                    )
                })
                .collect();
            let mut mine = Vec::new();
            loop {
                // Claim a number and enter the in-flight set under one lock,
                // so the progress thread never sees the number counted
                // without its flow in the set.
                let n = match in_flight.lock() {
                    Ok(mut set) => {
                        let n = next_flow.fetch_add(1, Ordering::SeqCst);
                        if n < opts.flows {
                            set.insert(n);
                        }
                        n
                    }
                    Err(_) => break,
                };
                if n >= opts.flows {
                    break;
                }
                if opts.rate > 0.0 {
                    let due = started_at + Duration::from_secs_f64(n as f64 / opts.rate);
                    let now = Instant::now();
                    if due > now {
                        std::thread::sleep(due - now);
                    }
                }
                let kind =
                    if opts.report_every > 0 && n % opts.report_every == opts.report_every - 1 {
                        Kind::GenerateReport
                    } else {
                        Kind::UpdateWorkItem
                    };
                let params = kind.params(n);
                let mut next_id = || ids.fetch_add(1, Ordering::Relaxed);
                let mut r = flow::run_flow_restarting(
                    CallMethod::ToolsCall,
                    &params,
                    &opts.flow,
                    (n as u64) ^ ((t as u64) << 32),
                    &mut client,
                    &mut next_id,
                );
                if opts.replay_every > 0 && n % opts.replay_every == 0 {
                    if let (Some((bytes, on)), End::Complete(_)) = (&r.spent, &r.end) {
                        replays.replay(&mut replay_clients, bytes, on.as_deref());
                    }
                }
                // The bytes are only for the replay: do not keep 100,000 of
                // them until the end.
                r.spent = None;
                completed.fetch_add(1, Ordering::Relaxed);
                if let Ok(mut set) = in_flight.lock() {
                    set.remove(&n);
                }
                mine.push((kind, r));
            }
            if let Ok(mut all) = reports.lock() {
                all.extend(mine);
            }
        }));
    }
    for h in handles {
        let _ = h.join();
    }
    let wall = started_at.elapsed();
    stop_progress.store(1, Ordering::Relaxed);
    if let Some(p) = progress {
        let _ = p.join();
    }
    let reports = std::mem::take(&mut *reports.lock().unwrap_or_else(|e| e.into_inner()));
    let mut summary = fold(opts, &reports, wall);
    if opts.replay_every > 0 {
        let get = |a: &AtomicUsize| a.load(Ordering::Relaxed);
        let r = &*replays;
        let _ = writeln!(
            summary.text,
            "replays of spent tokens: {} refused of {} tried ({} to another instance than the one that spent it), {} accepted, {} other errors, {} unanswered (instance down)",
            get(&r.refused),
            get(&r.tried),
            get(&r.tried_elsewhere),
            get(&r.accepted),
            get(&r.other_error),
            get(&r.unanswered)
        );
        let _ = writeln!(summary.kv, "replays_tried={}", get(&r.tried));
        let _ = writeln!(
            summary.kv,
            "replays_tried_elsewhere={}",
            get(&r.tried_elsewhere)
        );
        let _ = writeln!(summary.kv, "replays_refused={}", get(&r.refused));
        let _ = writeln!(summary.kv, "replays_accepted={}", get(&r.accepted));
        let _ = writeln!(summary.kv, "replays_other_error={}", get(&r.other_error));
        let _ = writeln!(summary.kv, "replays_unanswered={}", get(&r.unanswered));
        if get(&r.accepted) > 0 || get(&r.other_error) > 0 {
            summary.ok = false;
        }
    }
    summary
}

fn fold(opts: &LoadOpts, reports: &[(Kind, FlowReport)], wall: Duration) -> Summary {
    let mut text = String::new();
    let mut kv = String::new();
    let started = reports.len();
    let mut completed = 0usize;
    let mut failures: BTreeMap<String, usize> = BTreeMap::new();
    let mut rejected_state = 0usize;
    let mut per_instance: BTreeMap<String, usize> = BTreeMap::new();
    let mut per_kid: BTreeMap<String, usize> = BTreeMap::new();
    let mut switched = 0usize;
    let mut follow_ups = 0usize;
    let mut skipped_by_balancer = 0usize;
    let mut lat: BTreeMap<(Kind, u32), Vec<Duration>> = BTreeMap::new();
    let mut all_lat = Vec::new();
    // (latency, sent at, kind, round, instance, answered)
    let mut slowest: Vec<(Duration, Duration, Kind, u32, String, bool)> = Vec::new();
    let mut legs_ok = 0usize;
    let mut legs_failed = 0usize;
    let mut transport_errors: BTreeMap<String, usize> = BTreeMap::new();
    let mut resends = 0u32;
    let mut resent_flows_completed = 0usize;
    let mut max_flow = Duration::ZERO;
    let mut by_kind: BTreeMap<Kind, (usize, usize)> = BTreeMap::new();
    let mut by_round: BTreeMap<u32, Vec<Duration>> = BTreeMap::new();
    let mut restarted = 0usize;
    for (kind, r) in reports {
        if r.restarted {
            restarted += 1;
        }
        let e = by_kind.entry(*kind).or_default();
        e.0 += 1;
        max_flow = max_flow.max(r.duration);
        resends += r.resends;
        match &r.end {
            End::Complete(_) => {
                completed += 1;
                e.1 += 1;
                if r.resends > 0 {
                    resent_flows_completed += 1;
                }
            }
            End::RpcError { code, message } => {
                if *code == -32602 && message == "Invalid or expired requestState" {
                    rejected_state += 1;
                }
                *failures
                    .entry(format!("{}: rpc error {code}: {message}", kind.name()))
                    .or_default() += 1;
            }
            End::Violation(w) | End::Transport(w) | End::Answer(w) => {
                *failures.entry(format!("{}: {w}", kind.name())).or_default() += 1;
            }
        }
        let mut prev: Option<&str> = None;
        for leg in &r.legs {
            slowest.push((
                leg.latency,
                leg.sent_at,
                *kind,
                leg.round,
                leg.info
                    .upstream
                    .clone()
                    .or_else(|| leg.error.clone())
                    .unwrap_or_default(),
                leg.ok,
            ));
            if slowest.len() > 64 {
                slowest.sort_by_key(|l| std::cmp::Reverse(l.0));
                slowest.truncate(5);
            }
            if !leg.ok {
                legs_failed += 1;
                *transport_errors
                    .entry(leg.error.clone().unwrap_or_else(|| "no answer".into()))
                    .or_default() += 1;
                continue;
            }
            legs_ok += 1;
            if leg.round == 1 {
                // A flow started over begins a new chain of legs.
                prev = None;
            }
            if leg.info.upstreams_tried > 1 {
                skipped_by_balancer += 1;
            }
            let inst = leg
                .info
                .upstream
                .as_deref()
                .or(leg.info.instance.as_deref())
                .unwrap_or("unknown");
            *per_instance.entry(inst.to_string()).or_default() += 1;
            if let Some(k) = &leg.state_kid {
                *per_kid.entry(k.clone()).or_default() += 1;
            }
            if let Some(p) = prev {
                follow_ups += 1;
                if p != inst {
                    switched += 1;
                }
            }
            prev = Some(inst);
            lat.entry((*kind, leg.round)).or_default().push(leg.latency);
            by_round.entry(leg.round).or_default().push(leg.latency);
            all_lat.push(leg.latency);
        }
    }
    let failed = started - completed;
    let _ = writeln!(
        text,
        "flows: {} planned, {started} started, {completed} completed, {failed} failed ({:.1} s, {:.0} flows/s)",
        opts.flows,
        wall.as_secs_f64(),
        completed as f64 / wall.as_secs_f64().max(1e-9)
    );
    for (k, (s, c)) in &by_kind {
        let _ = writeln!(text, "  {:<18} {s} started, {c} completed", k.name());
    }
    if failures.is_empty() {
        let _ = writeln!(text, "failures: none");
    } else {
        let _ = writeln!(text, "failures:");
        for (why, n) in &failures {
            let _ = writeln!(text, "  {n:>6}  {why}");
        }
    }
    let _ = writeln!(
        text,
        "legs: {legs_ok} answered, {legs_failed} failed in transport and resent ({resends} resends; {resent_flows_completed} flows completed after a resend)"
    );
    for (why, n) in &transport_errors {
        let _ = writeln!(text, "  {n:>6}  {why}");
    }
    let _ = writeln!(text, "legs per instance:");
    for (inst, n) in &per_instance {
        let _ = writeln!(
            text,
            "  {inst:<22} {n:>7}  ({:.1}%)",
            100.0 * *n as f64 / legs_ok.max(1) as f64
        );
    }
    let _ = writeln!(
        text,
        "legs answered after the balancer skipped a dead instance: {skipped_by_balancer}"
    );
    let switch_pct = 100.0 * switched as f64 / follow_ups.max(1) as f64;
    let _ = writeln!(
        text,
        "follow-up legs on a different instance than the previous leg: {switched} of {follow_ups} ({switch_pct:.1}%)"
    );
    let _ = writeln!(text, "requestState tokens received per sealing key id:");
    for (kid, n) in &per_kid {
        let _ = writeln!(text, "  kid {kid}..  {n:>7}");
    }
    let _ = writeln!(
        text,
        "requestState rejected (-32602 Invalid or expired requestState): {rejected_state}"
    );
    let _ = writeln!(
        text,
        "latency per leg (ms):        n      p50      p99      max"
    );
    all_lat.sort();
    for ((kind, round), v) in lat.iter_mut() {
        v.sort();
        let _ = writeln!(
            text,
            "  {:<18} leg {round}  {:>7} {:>8} {:>8} {:>8}",
            kind.name(),
            v.len(),
            ms(percentile(v, 50.0)),
            ms(percentile(v, 99.0)),
            ms(*v.last().unwrap_or(&Duration::ZERO))
        );
    }
    let _ = writeln!(
        text,
        "  {:<24}  {:>7} {:>8} {:>8} {:>8}",
        "all legs",
        all_lat.len(),
        ms(percentile(&all_lat, 50.0)),
        ms(percentile(&all_lat, 99.0)),
        ms(*all_lat.last().unwrap_or(&Duration::ZERO))
    );
    let _ = writeln!(text, "longest flow: {} ms", ms(max_flow));
    slowest.sort_by_key(|l| std::cmp::Reverse(l.0));
    let _ = writeln!(text, "slowest legs (ms, sent at s since the load started):");
    for (lat, at, kind, round, inst, ok) in slowest.iter().take(5) {
        let _ = writeln!(
            text,
            "  {:>9}  at {:>6.2} s  {} leg {round}  {}{inst}",
            ms(*lat),
            at.as_secs_f64(),
            kind.name(),
            if *ok { "" } else { "failed: " },
        );
    }
    let _ = writeln!(
        text,
        "flows started over after a resent token was refused (spent by an instance that died mid-round): {restarted}"
    );
    for (round, v) in by_round.iter_mut() {
        v.sort();
        let _ = writeln!(kv, "round{round}_n={}", v.len());
        let _ = writeln!(kv, "round{round}_p50_ms={}", ms(percentile(v, 50.0)));
        let _ = writeln!(kv, "round{round}_p99_ms={}", ms(percentile(v, 99.0)));
    }
    let _ = writeln!(
        kv,
        "flows_per_s={:.0}",
        completed as f64 / wall.as_secs_f64().max(1e-9)
    );
    let _ = writeln!(kv, "flows_restarted={restarted}");
    let _ = writeln!(kv, "flows_started={started}");
    let _ = writeln!(kv, "flows_completed={completed}");
    let _ = writeln!(kv, "flows_failed={failed}");
    let _ = writeln!(kv, "state_rejected={rejected_state}");
    let _ = writeln!(kv, "legs_ok={legs_ok}");
    let _ = writeln!(kv, "legs_failed={legs_failed}");
    let _ = writeln!(kv, "resends={resends}");
    let _ = writeln!(kv, "resent_flows_completed={resent_flows_completed}");
    let _ = writeln!(kv, "skipped_by_balancer={skipped_by_balancer}");
    let _ = writeln!(kv, "instances={}", per_instance.len());
    let _ = writeln!(kv, "kids={}", per_kid.len());
    let _ = writeln!(kv, "switch_pct={switch_pct:.1}");
    let _ = writeln!(kv, "follow_ups={follow_ups}");
    let _ = writeln!(kv, "switched={switched}");
    let _ = writeln!(kv, "p50_ms={}", ms(percentile(&all_lat, 50.0)));
    let _ = writeln!(kv, "p99_ms={}", ms(percentile(&all_lat, 99.0)));
    let _ = writeln!(kv, "max_flow_ms={}", ms(max_flow));
    let _ = writeln!(kv, "wall_s={:.1}", wall.as_secs_f64());
    Summary {
        text,
        kv,
        ok: failed == 0 && rejected_state == 0 && started == opts.flows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_counts_as_refused_only_for_the_invalid_state_error() {
        assert_eq!(
            classify(br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid or expired requestState"}}"#),
            ReplayVerdict::Refused
        );
        assert_eq!(
            classify(
                br#"{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[]}}"#
            ),
            ReplayVerdict::Accepted
        );
        assert_eq!(
            classify(br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Replay store unavailable"}}"#),
            ReplayVerdict::OtherError
        );
        assert_eq!(classify(b"<html>502</html>"), ReplayVerdict::OtherError);
    }

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&v, 50.0), Duration::from_millis(50));
        assert_eq!(percentile(&v, 99.0), Duration::from_millis(99));
        assert_eq!(percentile(&v[..1], 99.0), Duration::from_millis(1));
        assert_eq!(percentile(&[], 50.0), Duration::ZERO);
    }
}
