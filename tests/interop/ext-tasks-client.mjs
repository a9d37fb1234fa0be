// The official Tasks extension client (@modelcontextprotocol/ext-tasks on
// @modelcontextprotocol/client) drives the demo server's task tools to their
// four ends, over stdio and over Streamable HTTP:
//
//   completion    slow_compute {seconds: 1} completes with its result;
//   input         confirm_delete asks `confirm` (task input_required), the
//                 session's input handler answers it, the package sends it
//                 with tasks/update, and the task completes;
//   failure       protocol_error_job fails with -32603;
//   cancellation  slow_compute {seconds: 60} is cancelled while it works.
//
// Every request of the task protocol (tools/call creating the task,
// tasks/get polling, tasks/update, tasks/cancel) and every decision about
// the replies is the package's own. What this script supplies is what the
// package asks its host for on a 2026-07-28 server (its README: "a
// 2026-07-28 Tasks server additionally requires rawDispatch and
// v2RequestFraming"): a request coordinator that sends a JSON-RPC request
// on the Client's own transport and hands back the matching response
// (`coordinated`, below), and the framing values the Client was made with.
//
// Usage (tests/interop/ext-tasks-client.sh runs it from the directory the
// packages are installed in):
//   node ext-tasks-client.mjs --stdio DEMO_BIN [--http URL]
// MRTR_KEYS is passed on to the stdio server. Prints one line per case and
// a closing "N passed, N failed"; exits 1 when any case failed.

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
    createApplicationInputHandler,
    createTaskSessionFromClient,
    TaskFailedError,
} from "@modelcontextprotocol/ext-tasks/client";
import { deepStrictEqual, strictEqual } from "node:assert/strict";

const PROTOCOL_VERSION = "2026-07-28";
const CLIENT_INFO = { name: "mrtr-ext-tasks-interop", version: "1.0.0" };
// Form elicitation: the input case answers a form. (The Tasks extension
// itself is declared by the package on every task request.)
const CLIENT_CAPABILITIES = { elicitation: { form: {} } };
const CASE_TIMEOUT_MS = 30_000;

function parseArgs(argv) {
    const out = {};
    for (let i = 0; i < argv.length; i += 2) {
        const [flag, value] = [argv[i], argv[i + 1]];
        if (value === undefined) throw new Error(`${flag} needs a value`);
        if (flag === "--stdio") out.stdio = value;
        else if (flag === "--http") out.http = value;
        else throw new Error(`unknown argument ${flag}`);
    }
    if (!out.stdio && !out.http) throw new Error("usage: ext-tasks-client.mjs --stdio DEMO_BIN [--http URL]");
    return out;
}

// coordinated(inner): a Transport for the Client that is `inner`, plus
// `dispatch(request)`, the host request coordinator the package's
// rawDispatch wants. dispatch gives each request an id of its own
// ("ext-tasks-N", never one of the Client's numeric ids), sends it on
// `inner`, and resolves with the response carrying that id; every other
// message goes on to the Client.
function coordinated(inner) {
    const pending = new Map();
    let next = 0;
    const transport = {
        onmessage: undefined,
        onclose: undefined,
        onerror: undefined,
        async start() {
            inner.onmessage = (message, extra) => {
                const waiter = typeof message?.id === "string" ? pending.get(message.id) : undefined;
                if (waiter !== undefined && ("result" in message || "error" in message)) {
                    pending.delete(message.id);
                    waiter(message);
                    return;
                }
                transport.onmessage?.(message, extra);
            };
            inner.onclose = () => {
                for (const [id, waiter] of pending) {
                    pending.delete(id);
                    waiter({ error: { code: -32000, message: "connection closed" } });
                }
                transport.onclose?.();
            };
            inner.onerror = (error) => transport.onerror?.(error);
            await inner.start();
        },
        send: (message, options) => inner.send(message, options),
        close: () => inner.close(),
        get sessionId() {
            return inner.sessionId;
        },
        get hasPerRequestStream() {
            return inner.hasPerRequestStream;
        },
        setProtocolVersion: (v) => inner.setProtocolVersion?.(v),
        setSupportedProtocolVersions: (v) => inner.setSupportedProtocolVersions?.(v),
    };
    const dispatch = async (request, options = {}) => {
        const id = `ext-tasks-${++next}`;
        const response = new Promise((resolve) => pending.set(id, resolve));
        const headers = options.context?.headers;
        await inner.send(
            { jsonrpc: "2.0", id, method: request.method, ...(request.params ? { params: request.params } : {}) },
            headers ? { headers } : undefined,
        );
        const message = await response;
        return "error" in message
            ? { kind: "error", error: message.error }
            : { kind: "result", result: message.result };
    };
    return { transport, dispatch };
}

// connect(kind, target): a Client on the pinned 2026-07-28 wire and its
// task session.
async function connect(kind, target, onInputRequest) {
    const inner =
        kind === "stdio"
            ? new StdioClientTransport({
                  command: target,
                  args: [],
                  // MRTR_KEYS among them (the server warns without it).
                  env: { ...process.env },
                  stderr: "inherit",
              })
            : new StreamableHTTPClientTransport(new URL(target));
    const { transport, dispatch } = coordinated(inner);
    const client = new Client(CLIENT_INFO, {
        capabilities: CLIENT_CAPABILITIES,
        versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
    });
    await client.connect(transport);
    const session = createTaskSessionFromClient(client, {
        endpointId: `mrtr-demo-${kind}`,
        rawDispatch: dispatch,
        v2RequestFraming: {
            protocolVersion: PROTOCOL_VERSION,
            clientInfo: CLIENT_INFO,
            clientCapabilities: CLIENT_CAPABILITIES,
        },
        onInputRequest,
    });
    return { client, session };
}

const text = (result) => result?.content?.[0]?.text;

// Each case: (session, asked) -> resolves when its assertions hold. `asked`
// collects the input requests the session's handler saw.
const CASES = {
    async completion(session) {
        const execution = await session.callTool("slow_compute", { seconds: 1, label: "interop" });
        strictEqual(execution.kind, "task");
        const { outcome, lastTask } = await execution.settle();
        strictEqual(outcome.status, "completed", `outcome ${JSON.stringify(outcome)}`);
        deepStrictEqual(outcome.result.content, [{ type: "text", text: "Computed 'interop' in 1 s." }]);
        strictEqual(outcome.result.isError, false);
        strictEqual(lastTask?.status, "completed");
        return text(outcome.result);
    },
    async input(session, asked) {
        const execution = await session.callTool("confirm_delete", { filename: "report.txt" });
        strictEqual(execution.kind, "task");
        const { outcome } = await execution.settle();
        strictEqual(outcome.status, "completed", `outcome ${JSON.stringify(outcome)}`);
        deepStrictEqual(outcome.result.content, [{ type: "text", text: "Deleted 'report.txt'." }]);
        strictEqual(outcome.result.isError, false);
        // One question, asked by the task and answered through tasks/update.
        strictEqual(asked.length, 1, `asked ${JSON.stringify(asked)}`);
        strictEqual(asked[0].message, "Delete 'report.txt'?");
        strictEqual(asked[0].scope, "task");
        strictEqual(asked[0].delivery, "task-update");
        strictEqual(asked[0].taskId, execution.handle.taskId);
        return `${text(outcome.result)} (asked "${asked[0].message}", answered by ${asked[0].delivery})`;
    },
    async failure(session) {
        const execution = await session.callTool("protocol_error_job", {});
        strictEqual(execution.kind, "task");
        const { outcome } = await execution.settle();
        strictEqual(outcome.status, "failed", `outcome ${JSON.stringify(outcome)}`);
        strictEqual(outcome.error instanceof TaskFailedError, true);
        strictEqual(outcome.error.code, -32603);
        strictEqual(outcome.error.message, "Internal error: protocol_error_job crashed");
        return `failed ${outcome.error.code}: ${outcome.error.message}`;
    },
    async cancellation(session) {
        const execution = await session.callTool("slow_compute", { seconds: 60, label: "long" });
        strictEqual(execution.kind, "task");
        const settled = execution.settle();
        await execution.cancel();
        const { outcome } = await settled;
        strictEqual(outcome.status, "cancelled", `outcome ${JSON.stringify(outcome)}`);
        // The server's view too: tasks/get through the package's controller.
        const view = await session.task(execution.handle.taskId).snapshot();
        strictEqual(view.status, "cancelled");
        strictEqual(view.statusMessage, "Task cancelled");
        return `cancelled, and tasks/get says ${view.status} ("${view.statusMessage}")`;
    },
};

function withTimeout(promise, ms, what) {
    let timer;
    const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no outcome within ${ms} ms`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function runTransport(kind, target) {
    let passed = 0;
    let failed = 0;
    for (const [name, run] of Object.entries(CASES)) {
        const asked = [];
        const onInputRequest = createApplicationInputHandler({
            elicitation: (request, context) => {
                asked.push({
                    message: request.params.message,
                    scope: context.scope,
                    delivery: context.delivery,
                    taskId: context.taskId,
                });
                return { action: "accept", content: { confirm: true } };
            },
            sampling: () => {
                throw new Error("no sampling in these cases");
            },
            roots: () => ({ roots: [] }),
        });
        let conn;
        try {
            conn = await connect(kind, target, onInputRequest);
            const detail = await withTimeout(run(conn.session, asked), CASE_TIMEOUT_MS, `${kind} ${name}`);
            console.log(`ok   ${kind} ${name}: ${detail}`);
            passed++;
        } catch (error) {
            console.log(`FAIL ${kind} ${name}: ${error?.stack ?? error}`);
            failed++;
        } finally {
            await conn?.session.close().catch(() => {});
            await conn?.client.close().catch(() => {});
        }
    }
    return { passed, failed };
}

const args = parseArgs(process.argv.slice(2));
let passed = 0;
let failed = 0;
for (const [kind, target] of [
    ["stdio", args.stdio],
    ["http", args.http],
]) {
    if (!target) continue;
    const r = await runTransport(kind, target);
    passed += r.passed;
    failed += r.failed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
