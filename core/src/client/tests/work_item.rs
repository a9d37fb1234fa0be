//! The SEP's "Real-World Example" (a work item resolved as a duplicate, two
//! rounds, `requestState` in the second) as recorded server messages, and the
//! exact bytes the client must emit for each leg. One file for two readers:
//! mrtr-core's client tests (`flows.rs`) and the Cortex-M example, which
//! includes it as its module `recorded` (examples/cortex-m/src/lib.rs).

/// The caller's params for `tools/call` (the SEP's, spacing kept: the call
/// forwards member values byte for byte).
pub const PARAMS: &str = r#"{"name": "update_work_item", "arguments": {"workItemId": 4522, "fields": { "System.State": "Resolved" }}}"#;

/// Round 1: the server needs a resolution.
pub const ROUND_1: &str = r#"{
  "jsonrpc": "2.0",
  "id": 1,
  "result": {
    "resultType": "input_required",
    "inputRequests": {
      "resolution": {
        "method": "elicitation/create",
        "params": {
          "message": "Resolving Bug #4522 requires a resolution. How was this bug resolved?",
          "requestedSchema": {
            "type": "object",
            "properties": {
              "resolution": {
                "type": "string",
                "enum": ["Fixed", "Won't Fix", "Duplicate", "By Design"],
                "description": "Resolution type for this bug"
              }
            },
            "required": ["resolution"]
          }
        }
      }
    }
  }
}"#;

/// Round 2: "Duplicate" needs the original's id; the server's state so far
/// travels in `requestState`.
pub const ROUND_2: &str = r#"{
  "jsonrpc": "2.0",
  "id": 2,
  "result": {
    "resultType": "input_required",
    "inputRequests": {
      "duplicate_of": {
        "method": "elicitation/create",
        "params": {
          "message": "Since this is a duplicate, which work item is the original?",
          "requestedSchema": {
            "type": "object",
            "properties": {
              "duplicateOfId": {
                "type": "number",
                "description": "Work item ID of the original bug"
              }
            },
            "required": ["duplicateOfId"]
          }
        }
      }
    },
    "requestState": "eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0..."
  }
}"#;

/// The final result (no `resultType`: complete, as the schema allows).
pub const DONE: &str = r#"{
  "jsonrpc": "2.0",
  "id": 3,
  "result": {
    "content": [
      {
        "type": "text",
        "text": "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created."
      }
    ],
    "isError": false
  }
}"#;

/// The result object inside [`DONE`], as `Event::Complete` must borrow it.
pub const DONE_RESULT: &str = r#"{
    "content": [
      {
        "type": "text",
        "text": "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created."
      }
    ],
    "isError": false
  }"#;

/// The user's answer in round 1 (the form's content).
pub const ANSWER_1: &[u8] = br#"{"resolution":"Duplicate"}"#;
/// The user's answer in round 2.
pub const ANSWER_2: &[u8] = br#"{"duplicateOfId":4301}"#;

/// Params as every leg sends them: `_meta` first (revision, the declared
/// form elicitation, the client info), then the caller's members.
macro_rules! params {
    () => {
        concat!(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","#,
            r#""io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"#,
            r#""io.modelcontextprotocol/clientInfo":{"name":"ExampleClient","version":"1.0.0"}},"#,
            r#""name":"update_work_item","arguments":{"workItemId": 4522, "fields": { "System.State": "Resolved" }}"#
        )
    };
}

/// Leg 1: the original request.
pub const LEG_1: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"#,
    params!(),
    "}}"
);

/// Leg 2: the same params plus the bare elicitation result; no
/// `requestState`, since round 1 carried none.
pub const LEG_2: &str = concat!(
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"#,
    params!(),
    r#","inputResponses":{"resolution":{"action":"accept","content":{"resolution":"Duplicate"}}}}}"#
);

/// Leg 3: only round 2's answer (round 1's does not leak) and round 2's
/// `requestState`, echoed byte for byte.
pub const LEG_3: &str = concat!(
    r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":"#,
    params!(),
    r#","inputResponses":{"duplicate_of":{"action":"accept","content":{"duplicateOfId":4301}}},"#,
    r#""requestState":"eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0..."}}"#
);

/// The `requestState` token of round 2, quotes included.
pub const STATE_TOKEN: &[u8] = br#""eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0...""#;
