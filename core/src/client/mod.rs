//! Client side: the helpers a UI and an HTTP stack need around a call.

pub mod form;
pub mod http;
pub mod roots;
pub mod sse;
pub mod url;
