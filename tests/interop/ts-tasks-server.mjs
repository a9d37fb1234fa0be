// A small MCP server (protocol 2026-07-28) on the official TypeScript
// packages, whose tools run as tasks of the Tasks extension (SEP-2663:
// tasks/get, tasks/update, tasks/cancel), for
// tests/interop/mrtr-client-vs-ts-tasks.sh.
//
//   node ts-tasks-server.mjs                 stdio (serveStdio)
//   node ts-tasks-server.mjs --http H:PORT   Streamable HTTP, POST /mcp
//                                            (createMcpHandler on node:http)
//
// @modelcontextprotocol/server serves the protocol (envelope, era gate,
// SEP-2243 header checks over HTTP, input_required); the task methods are
// registered with the wire schemas of @modelcontextprotocol/ext-tasks
// (core/v2), which also checks every task this server hands out. The
// package has no task runtime for servers: the store below is this file's.
//
// Tools (each takes `dataset`, designated with x-mcp-header "Dataset"):
//   approve_export    task: asks for approval (a form, through tasks/get's
//                     inputRequests; answered with tasks/update), then
//                     completes
//   export_now        task: completes after a moment
//   export_broken     task: fails with -32603
//   export_forever    task: works until the client cancels it
//   export_withdrawn  task: the server cancels it after a moment
//   confirm_inline    no task: one input_required round (a form), then a
//                     result; over HTTP the retry carries Mcp-Param-Dataset
//                     again or the server refuses it
//   bad_header        excluded: x-mcp-header on a number (invalid)
// A task tool called without the Tasks extension declared throws
// MissingRequiredClientCapabilityError, which McpServer answers as a tool
// error (isError: true) carrying its message.
import http from "node:http";

import {
  McpServer,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  acceptedContent,
  createMcpHandler,
  inputRequired,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import {
  CancelTaskRequestV2Schema,
  CancelTaskResultV2Schema,
  CreateTaskResultV2Schema,
  GetTaskRequestV2Schema,
  GetTaskResultV2Schema,
  InputRequestsV2Schema,
  TASKS_EXTENSION_ID_V2,
  UpdateTaskRequestV2Schema,
  UpdateTaskResultV2Schema,
  hasTaskClientCapabilityV2,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import * as z from "zod/v4";

const POLL_MS = 100;
const TTL_MS = 60_000;
const WORK_MS = 250;

// ---- the task store (one per process: HTTP serves each request from a
// fresh McpServer, so the tasks live here, not in an instance) ----------

const tasks = new Map();
let lastTask = 0;

const now = () => new Date().toISOString();

function later(ms, fn) {
  // Unref'd: a pending task never keeps a stdio server alive after EOF.
  setTimeout(fn, ms).unref();
}

function createTask() {
  lastTask += 1;
  const at = now();
  const task = {
    taskId: `ts-task-${lastTask}`,
    status: "working",
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs: TTL_MS,
    pollIntervalMs: POLL_MS,
  };
  tasks.set(task.taskId, task);
  return task;
}

// Moves a live task to `status` with that status's member (inputRequests,
// result or error); a task already completed, failed or cancelled stays.
function settle(task, status, fields = {}) {
  if (["completed", "failed", "cancelled"].includes(task.status)) {
    return;
  }
  delete task.inputRequests;
  delete task.result;
  delete task.error;
  Object.assign(task, fields, { status, lastUpdatedAt: now() });
}

function complete(task, text, isError = false) {
  settle(task, "completed", {
    result: { resultType: "complete", content: [{ type: "text", text }], isError },
  });
}

function findTask(taskId) {
  const task = tasks.get(taskId);
  if (task === undefined) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId}`);
  }
  return task;
}

// The CreateTaskResult a tools/call answers with, checked against the
// extension's schema.
function created(task) {
  const { taskId, status, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs } = task;
  return CreateTaskResultV2Schema.parse({
    resultType: "task",
    taskId,
    status,
    createdAt,
    lastUpdatedAt,
    ttlMs,
    pollIntervalMs,
  });
}

// ---- the tools --------------------------------------------------------------

const datasetArgs = z.object({
  dataset: z.string().meta({ "x-mcp-header": "Dataset" }),
});

const approvalForm = {
  type: "object",
  properties: { approve: { type: "boolean", title: "Approve the export" } },
  required: ["approve"],
};

// What each task tool does with its new task.
const TASK_TOOLS = {
  approve_export: {
    description: "Exports a dataset as a task after asking for approval (tasks/update).",
    start(task, dataset) {
      task.dataset = dataset;
      settle(task, "input_required", {
        inputRequests: InputRequestsV2Schema.parse({
          approval: {
            method: "elicitation/create",
            params: { mode: "form", message: `Export ${dataset}?`, requestedSchema: approvalForm },
          },
        }),
      });
    },
  },
  export_now: {
    description: "Exports a dataset as a task that completes.",
    start(task, dataset) {
      later(WORK_MS, () => complete(task, `exported ${dataset}`));
    },
  },
  export_broken: {
    description: "Exports a dataset as a task that fails.",
    start(task, dataset) {
      later(WORK_MS, () =>
        settle(task, "failed", {
          error: { code: ProtocolErrorCode.InternalError, message: `the export of ${dataset} broke` },
        }),
      );
    },
  },
  export_forever: {
    description: "Exports a dataset as a task that works until it is cancelled.",
    start() {},
  },
  export_withdrawn: {
    description: "Exports a dataset as a task that the server cancels.",
    start(task) {
      later(WORK_MS, () => settle(task, "cancelled", { statusMessage: "withdrawn by the server" }));
    },
  },
};

function declaresTasks(ctx) {
  return hasTaskClientCapabilityV2({ _meta: ctx.mcpReq.envelope ?? {} });
}

function buildServer() {
  const server = new McpServer(
    { name: "mrtr-ts-tasks-server", version: "1.0.0" },
    { capabilities: { tools: {}, extensions: { [TASKS_EXTENSION_ID_V2]: {} } } },
  );

  for (const [name, tool] of Object.entries(TASK_TOOLS)) {
    server.registerTool(name, { description: tool.description, inputSchema: datasetArgs }, async ({ dataset }, ctx) => {
      if (!declaresTasks(ctx)) {
        throw new MissingRequiredClientCapabilityError(
          { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } } },
          `${name} runs only as a task: declare the ${TASKS_EXTENSION_ID_V2} extension`,
        );
      }
      const task = createTask();
      tool.start(task, dataset);
      return created(task);
    });
  }

  const confirmSchema = z.object({ confirm: z.boolean() });
  server.registerTool(
    "confirm_inline",
    { description: "Asks to confirm (input_required), then answers; never a task.", inputSchema: datasetArgs },
    async ({ dataset }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm", confirmSchema);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: `Confirm ${dataset}?`, requestedSchema: confirmSchema }),
          },
        });
      }
      return { content: [{ type: "text", text: `${dataset}: ${answer.confirm ? "confirmed" : "not confirmed"}` }] };
    },
  );

  server.registerTool(
    "bad_header",
    {
      description: "Designates a number argument with x-mcp-header: clients must exclude it.",
      inputSchema: z.object({ count: z.number().meta({ "x-mcp-header": "Count" }) }),
    },
    async ({ count }) => ({ content: [{ type: "text", text: `called with ${count}` }] }),
  );

  // The task methods, with the extension's wire schemas for their params.
  server.server.setRequestHandler("tasks/get", { params: GetTaskRequestV2Schema.shape.params }, async ({ taskId }) => {
    const task = findTask(taskId);
    const { dataset: _dataset, ...wire } = task;
    return GetTaskResultV2Schema.parse({ ...wire, resultType: "complete" });
  });

  // The SDK lifts `inputResponses` out of params before dispatch (as for a
  // tools/call retry) and hands them over as ctx.mcpReq.inputResponses: the
  // params are checked whole against the extension's schema here.
  const updateParams = UpdateTaskRequestV2Schema.shape.params;
  server.server.setRequestHandler(
    "tasks/update",
    { params: updateParams.pick({ taskId: true }) },
    async ({ taskId }, ctx) => {
      const { inputResponses } = updateParams.parse({ taskId, inputResponses: ctx.mcpReq.inputResponses });
      const task = findTask(taskId);
      const answer = inputResponses.approval;
      if (task.status !== "input_required" || answer === undefined) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${taskId} is not waiting for approval`);
      }
      const approved = answer.action === "accept" && answer.content?.approve === true;
      settle(task, "working");
      later(WORK_MS, () =>
        approved
          ? complete(task, `exported ${task.dataset} (approved)`)
          : complete(task, `export of ${task.dataset} not approved`, true),
      );
      return UpdateTaskResultV2Schema.parse({ resultType: "complete" });
    },
  );

  server.server.setRequestHandler("tasks/cancel", { params: CancelTaskRequestV2Schema.shape.params }, async ({ taskId }) => {
    const task = findTask(taskId);
    settle(task, "cancelled", { statusMessage: "cancelled by the client" });
    return CancelTaskResultV2Schema.parse({ resultType: "complete" });
  });

  return server;
}

// ---- serving ----------------------------------------------------------------

function serveHttp(hostPort) {
  const cut = hostPort.lastIndexOf(":");
  const host = hostPort.slice(0, cut);
  const port = Number(hostPort.slice(cut + 1));
  const handler = createMcpHandler(() => buildServer(), {
    legacy: "reject",
    onerror: (error) => process.stderr.write(`ts-tasks-server: ${error.message}\n`),
  });
  const httpServer = http.createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) {
        chunks.push(chunk);
      }
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      }
      const request = new Request(`http://${hostPort}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
      });
      const response = await handler.fetch(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      process.stderr.write(`ts-tasks-server: ${error.stack ?? error}\n`);
      res.writeHead(500).end();
    }
  });
  httpServer.listen(port, host, () => process.stderr.write(`ts-tasks-server: listening on http://${hostPort}/mcp\n`));
  process.on("SIGTERM", () => httpServer.close(() => process.exit(0)));
}

const args = process.argv.slice(2);
if (args[0] === "--http" && args.length === 2) {
  serveHttp(args[1]);
} else if (args.length === 0) {
  serveStdio(() => buildServer(), { legacy: "reject" });
} else {
  process.stderr.write("usage: ts-tasks-server.mjs [--http HOST:PORT]\n");
  process.exit(64);
}
