/*
 * JNI glue between dev.mrtr.Native (Kotlin) and include/mrtr.h.
 *
 * One JNI function per C function, same order as the header, no protocol
 * logic. Conventions, shared by every function:
 *   - The return value is the mrtr_status as jint (the Kotlin side turns it
 *     into an exception). Outputs go to Java arrays passed in: numbers to a
 *     jlongArray `out` (layout documented per function), bytes to a
 *     jbyteArray, written only on MRTR_OK (and the needed size on
 *     MRTR_ERR_BUFFER_TOO_SMALL, as in C).
 *   - Every Java argument is checked before use: a NULL array that must be
 *     there is MRTR_ERR_NULL_POINTER, an out array that is too short or an
 *     offset/length outside its array is MRTR_ERR_INVALID_ARGUMENT. Nothing
 *     the Kotlin side passes can make this file dereference a bad pointer.
 *   - Objects (calls, ...) live in workspaces this file allocates (wsAlloc):
 *     a direct ByteBuffer over malloc'd memory with a guard header, freed by
 *     wsFree. Functions on an object take that buffer: mrtr handles are the
 *     workspace's address, so the Kotlin side never holds a pointer. A buffer
 *     that is not a workspace reaches the C function as NULL
 *     (MRTR_ERR_NULL_POINTER); one holding another object type is refused by
 *     the C function's own handle check (MRTR_ERR_INVALID_ARGUMENT).
 *   - When the JVM cannot pin or allocate an array (OutOfMemoryError is then
 *     pending), the function returns MRTR_ERR_INTERNAL and the pending Java
 *     exception is what the caller sees.
 */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mrtr.h"

#define JNI_FN(name) JNICALL Java_dev_mrtr_Native_##name

/* ------------------------------------------------------------ helpers */

/* memset through a volatile function pointer: the compiler cannot prove the
 * stores dead and drop them before free (C99 has no memset_s everywhere). */
static void *(*const volatile memset_keep)(void *, int, size_t) = memset;

static void wipe(void *p, size_t n) {
  (void)memset_keep(p, 0, n);
}


/* A Java byte[] pinned (or copied) for the duration of one C call. */
typedef struct {
  jbyteArray arr;
  jbyte *ptr;
  jsize len;
  jboolean is_copy;
} jbytes;

/* Pins `arr` (NULL allowed: ptr NULL, len 0). Returns 0, or -1 when the JVM
 * could not (an exception is pending). */
static int bytes_open(JNIEnv *env, jbyteArray arr, jbytes *b) {
  b->arr = arr;
  b->ptr = NULL;
  b->len = 0;
  b->is_copy = JNI_FALSE;
  if (arr == NULL) {
    return 0;
  }
  b->len = (*env)->GetArrayLength(env, arr);
  if (b->len == 0) {
    return 0;
  }
  b->ptr = (*env)->GetByteArrayElements(env, arr, &b->is_copy);
  return b->ptr == NULL ? -1 : 0;
}

/* Releases `b`; `commit` copies the bytes back (outputs), else they are
 * discarded (inputs). */
static void bytes_close(JNIEnv *env, jbytes *b, int commit) {
  if (b->ptr != NULL) {
    (*env)->ReleaseByteArrayElements(env, b->arr, b->ptr, commit ? 0 : JNI_ABORT);
    b->ptr = NULL;
  }
}

/* Releases an input holding a secret: a copy the JVM made is zeroed first
 * (a pinned array is the caller's own, left as it is). */
static void bytes_close_secret(JNIEnv *env, jbytes *b) {
  if (b->ptr != NULL && b->is_copy) {
    wipe(b->ptr, (size_t)b->len);
  }
  bytes_close(env, b, 0);
}

/* The sub-range [off, off+len) of a pinned array, checked. */
static int bytes_range(const jbytes *b, jint off, jint len, const uint8_t **p, size_t *n) {
  if (off < 0 || len < 0 || off > b->len || len > b->len - off) {
    return -1;
  }
  *p = b->ptr == NULL ? NULL : (const uint8_t *)b->ptr + off;
  *n = (size_t)len;
  return 0;
}

/* Checks that `out` is a long[] of at least `n` entries. */
static jint longs_check(JNIEnv *env, jlongArray out, jsize n) {
  if (out == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  if ((*env)->GetArrayLength(env, out) < n) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  return MRTR_OK;
}

/* Writes `n` longs to a checked out array. */
static void longs_put(JNIEnv *env, jlongArray out, const jlong *v, jsize n) {
  (*env)->SetLongArrayRegion(env, out, 0, n, v);
}

/* A new Java String from a static NUL-terminated C string. */
static jstring cstr(JNIEnv *env, const char *s) {
  return (*env)->NewStringUTF(env, s == NULL ? "" : s);
}

/* ------------------------------------------------------------ workspaces */

/* Workspaces carry a 16-byte header before the memory the buffer shows:
 * a magic word (so wsFree refuses buffers it did not allocate and double
 * frees) and the size. 16 keeps the workspace aligned as malloc's block. */
#define WS_HEADER 16
static const uint64_t WS_MAGIC = 0x6d7274725f777331ULL; /* "mrtr_ws1" */
static const uint64_t WS_FREED = 0x6d7274725f667265ULL; /* "mrtr_fre" */

/* The workspace memory of a buffer from wsAlloc, or NULL. The guard is read
 * from the 16 bytes before the buffer's address: for buffers from wsAlloc
 * that is our header; dev.mrtr.Native is internal, so no other buffer reaches
 * this file except through reflection, and the JVM's own direct buffers
 * (allocateDirect) sit inside malloc blocks whose preceding bytes are mapped.
 * A heap (non-direct) buffer has no address and is refused outright. */
static uint8_t *ws_base(JNIEnv *env, jobject ws, size_t *cap) {
  if (ws == NULL) {
    return NULL;
  }
  uint8_t *p = (uint8_t *)(*env)->GetDirectBufferAddress(env, ws);
  jlong c = (*env)->GetDirectBufferCapacity(env, ws);
  if (p == NULL || c <= 0) {
    return NULL;
  }
  uint64_t magic;
  memcpy(&magic, p - WS_HEADER, sizeof magic);
  if (magic != WS_MAGIC) {
    return NULL;
  }
  *cap = (size_t)c;
  return p;
}

/* The object in workspace `ws`: mrtr handles are the workspace's address
 * (the C functions check the object's magic and stored address), so the
 * Kotlin side never holds a raw pointer. NULL for a buffer not from wsAlloc,
 * which the C functions answer with MRTR_ERR_NULL_POINTER. */
static void *ws_object(JNIEnv *env, jobject ws) {
  size_t cap = 0;
  return ws_base(env, ws, &cap);
}

/* Offset and length of a view `p`/`n` inside workspace `ws`, for the Kotlin
 * side to copy out of the ByteBuffer. Empty views are {0, 0}. Returns -1
 * when the view is not inside the workspace. */
static int ws_view(JNIEnv *env, jobject ws, const void *p, size_t n, jlong *off, jlong *len) {
  size_t cap = 0;
  uint8_t *base = ws_base(env, ws, &cap);
  if (n == 0) {
    *off = 0;
    *len = 0;
    return 0;
  }
  uintptr_t a = (uintptr_t)p, b = (uintptr_t)base;
  if (base == NULL || p == NULL || a < b || a - b > cap || n > cap - (a - b)) {
    return -1;
  }
  *off = (jlong)(a - b);
  *len = (jlong)n;
  return 0;
}

/* ByteBuffer wsAlloc(long size): zeroed native memory, aligned to 16, or
 * null (size out of range, or no memory). */
JNIEXPORT jobject JNI_FN(wsAlloc)(JNIEnv *env, jclass cls, jlong size) {
  (void)cls;
  if (size <= 0 || (uint64_t)size > (uint64_t)INT32_MAX) {
    return NULL;
  }
  uint8_t *p = (uint8_t *)calloc(1, (size_t)size + WS_HEADER);
  if (p == NULL) {
    return NULL;
  }
  uint64_t magic = WS_MAGIC, len = (uint64_t)size;
  memcpy(p, &magic, sizeof magic);
  memcpy(p + 8, &len, sizeof len);
  jobject buf = (*env)->NewDirectByteBuffer(env, p + WS_HEADER, size);
  if (buf == NULL) {
    free(p);
  }
  return buf;
}

/* int wsFree(ByteBuffer ws): wipes and frees a workspace from wsAlloc.
 * MRTR_ERR_INVALID_ARGUMENT for any other buffer or a second free. */
JNIEXPORT jint JNI_FN(wsFree)(JNIEnv *env, jclass cls, jobject ws) {
  (void)cls;
  size_t cap = 0;
  uint8_t *base = ws_base(env, ws, &cap);
  if (base == NULL) {
    return ws == NULL ? MRTR_ERR_NULL_POINTER : MRTR_ERR_INVALID_ARGUMENT;
  }
  /* Wipe: workspaces hold requestState tokens, answers and sealing keys. */
  wipe(base, cap);
  uint8_t *p = base - WS_HEADER;
  memcpy(p, &WS_FREED, sizeof WS_FREED);
  free(p);
  return MRTR_OK;
}

/* ------------------------------------------------------------ library info */

/* String version() */
JNIEXPORT jstring JNI_FN(version)(JNIEnv *env, jclass cls) {
  (void)cls;
  return cstr(env, mrtr_version());
}

/* String protocolVersion() */
JNIEXPORT jstring JNI_FN(protocolVersion)(JNIEnv *env, jclass cls) {
  (void)cls;
  return cstr(env, mrtr_protocol_version());
}

/* String statusStr(int status) */
JNIEXPORT jstring JNI_FN(statusStr)(JNIEnv *env, jclass cls, jint status) {
  (void)cls;
  return cstr(env, mrtr_status_str((int32_t)status));
}

/* ------------------------------------------------------------ json */

/* int jsonValidate(byte[] json, int off, int len, long maxDepth, long[] out)
 * out[0]: the error offset on MRTR_ERR_JSON / MRTR_ERR_LIMIT_EXCEEDED. */
JNIEXPORT jint JNI_FN(jsonValidate)(JNIEnv *env, jclass cls, jbyteArray json, jint off,
                                    jint len, jlong max_depth, jlongArray out) {
  (void)cls;
  jint st = longs_check(env, out, 1);
  if (st != MRTR_OK) {
    return st;
  }
  if (json == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  if (max_depth < 0) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  jbytes in;
  if (bytes_open(env, json, &in) != 0) {
    return MRTR_ERR_INTERNAL;
  }
  const uint8_t *p;
  size_t n;
  if (bytes_range(&in, off, len, &p, &n) != 0) {
    bytes_close(env, &in, 0);
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  size_t where = 0;
  st = (jint)mrtr_json_validate(p, n, (size_t)max_depth, &where);
  bytes_close(env, &in, 0);
  if (st == MRTR_ERR_JSON || st == MRTR_ERR_LIMIT_EXCEEDED) {
    jlong v = (jlong)where;
    longs_put(env, out, &v, 1);
  }
  return st;
}

/* int jsonWriteString(byte[] text, byte[] out, long[] written)
 * written[0]: bytes written, or the size needed on BUFFER_TOO_SMALL. `out`
 * may be null to ask for the size. */
JNIEXPORT jint JNI_FN(jsonWriteString)(JNIEnv *env, jclass cls, jbyteArray text, jbyteArray out,
                                       jlongArray written) {
  (void)cls;
  jint st = longs_check(env, written, 1);
  if (st != MRTR_OK) {
    return st;
  }
  if (text == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  jbytes in, o;
  if (bytes_open(env, text, &in) != 0) {
    return MRTR_ERR_INTERNAL;
  }
  if (bytes_open(env, out, &o) != 0) {
    bytes_close(env, &in, 0);
    return MRTR_ERR_INTERNAL;
  }
  mrtr_str s = {(const char *)in.ptr, (size_t)in.len};
  size_t w = 0;
  st = (jint)mrtr_json_write_string(s, (uint8_t *)o.ptr, (size_t)o.len, &w);
  bytes_close(env, &o, st == MRTR_OK);
  bytes_close(env, &in, 0);
  if (st == MRTR_OK || st == MRTR_ERR_BUFFER_TOO_SMALL) {
    jlong v = (jlong)w;
    longs_put(env, written, &v, 1);
  }
  return st;
}

/* ------------------------------------------------------------ more helpers */

/* Pins an input array that must be present. */
#define PIN_REQUIRED(env, arr, b)                                                                  \
  do {                                                                                             \
    if ((arr) == NULL) {                                                                           \
      return MRTR_ERR_NULL_POINTER;                                                                \
    }                                                                                              \
    if (bytes_open((env), (arr), (b)) != 0) {                                                      \
      return MRTR_ERR_INTERNAL;                                                                    \
    }                                                                                              \
  } while (0)

static mrtr_str str_of(const jbytes *b) {
  mrtr_str s = {(const char *)b->ptr, (size_t)b->len};
  return s;
}

static mrtr_bytes mbytes_of(const jbytes *b) {
  mrtr_bytes s = {(const uint8_t *)b->ptr, (size_t)b->len};
  return s;
}

/* A string argument that may be absent (`ptr` NULL) as opposed to empty
 * (`ptr` non-NULL, length 0): the C API tells them apart. */
static const char EMPTY[1] = {0};
static mrtr_str opt_str_of(const jbytes *b) {
  mrtr_str s = {b->arr == NULL ? NULL : (b->ptr == NULL ? EMPTY : (const char *)b->ptr),
                (size_t)b->len};
  return s;
}

/* Offset and length of view `p`/`n` inside pinned array `b`; -1 if not. */
static int view_in(const jbytes *b, const void *p, size_t n, jlong *off, jlong *len) {
  if (n == 0) {
    *off = 0;
    *len = 0;
    return 0;
  }
  uintptr_t a = (uintptr_t)p, base = (uintptr_t)b->ptr;
  size_t cap = (size_t)b->len;
  if (b->ptr == NULL || p == NULL || a < base || a - base > cap || n > cap - (a - base)) {
    return -1;
  }
  *off = (jlong)(a - base);
  *len = (jlong)n;
  return 0;
}

/* Stores a static C string into strs[0] when `strs` is a non-empty array. */
static void str_out(JNIEnv *env, jobjectArray strs, const char *s) {
  if (strs == NULL || (*env)->GetArrayLength(env, strs) < 1) {
    return;
  }
  jstring j = cstr(env, s);
  if (j != NULL) {
    (*env)->SetObjectArrayElement(env, strs, 0, j);
    (*env)->DeleteLocalRef(env, j);
  }
}

/* The cause of status `st` that a C function on call `c` just returned: the
 * one the call remembers (mrtr_call_check: "NotAnOption", "IdNotFresh",
 * "Overlap", the status's own name, or "Null"/"NotAnObject"/... for a handle
 * that is no live call); when that function failed the call with `st`, the
 * failure's own reason (mrtr_call_failure: "InputRequiredWithoutFields"),
 * which is finer. Read in that order: every call function, mrtr_call_failure
 * too, replaces what the call remembers. */
static const char *call_cause(const mrtr_call *c, jint st) {
  const char *why = NULL;
  mrtr_status checked = mrtr_call_check(c, &why);
  if (checked != MRTR_OK) {
    return why; /* no live call: the handle's refusal */
  }
  mrtr_failure f;
  memset(&f, 0, sizeof f);
  if (mrtr_call_failure(c, &f) == MRTR_OK && (jint)f.status == st && f.reason != NULL &&
      f.reason[0] != '\0') {
    return f.reason;
  }
  return why;
}

/* After a C function on call `h` returned `st`: on a failure, its cause
 * (call_cause) into reason[0] (a String[] of at least one entry; NULL: not
 * wanted). A refusal of this file's own checks, before the C function ran,
 * leaves reason[0] as it was (null): the Kotlin side then names the status.
 * Returns `st`. */
static jint call_why(JNIEnv *env, const void *h, jint st, jobjectArray reason) {
  if (st != MRTR_OK && reason != NULL) {
    str_out(env, reason, call_cause((const mrtr_call *)h, st));
  }
  return st;
}

/* A jlong into an unsigned member `width` bytes wide (4 or 8): -1 when it
 * is negative or does not fit. */
static int to_unsigned(jlong v, void *out, size_t width) {
  if (v < 0 || (width < 8 && ((uint64_t)v >> (8 * width)) != 0)) {
    return -1;
  }
  if (width == sizeof(uint32_t)) {
    uint32_t x = (uint32_t)v;
    memcpy(out, &x, sizeof x);
  } else if (width == sizeof(uint64_t)) {
    uint64_t x = (uint64_t)v;
    memcpy(out, &x, sizeof x);
  } else {
    return -1;
  }
  return 0;
}

/* A jlong that must fit size_t (non-negative). */
static int to_size(jlong v, size_t *out) { return to_unsigned(v, out, sizeof *out); }

/* Runs a writer with the header's output convention into Java array `out`
 * (null: size query) and reports written/needed in written[0]. */
#define OUT_BEGIN(env, out, written)                                                               \
  jint st_ = longs_check((env), (written), 1);                                                     \
  if (st_ != MRTR_OK) {                                                                            \
    return st_;                                                                                    \
  }                                                                                                \
  jbytes o_;                                                                                       \
  if (bytes_open((env), (out), &o_) != 0) {                                                        \
    return MRTR_ERR_INTERNAL;                                                                      \
  }                                                                                                \
  size_t w_ = 0
#define OUT_PTR ((uint8_t *)o_.ptr)
#define OUT_LEN ((size_t)o_.len)
#define OUT_WRITTEN (&w_)
#define OUT_END(env, written, st)                                                                  \
  bytes_close((env), &o_, (st) == MRTR_OK);                                                        \
  if ((st) == MRTR_OK || (st) == MRTR_ERR_BUFFER_TOO_SMALL) {                                      \
    jlong v_ = (jlong)w_;                                                                          \
    longs_put((env), (written), &v_, 1);                                                           \
  }

/* ------------------------------------------------------------ call */

/* The long[] layouts the Kotlin side reads: generated from its Slots object. */
#include "mrtr_jni_slots.h"

/* Copies by the generated lists: `src` points at the C struct, `v` is its
 * long[] image. A view is an offset/length pair into the pinned bytes `in`
 * (VIEW_IN) or into the workspace `ws` (VIEW_WS); an mrtr_span is one already
 * (SPAN_OUT). The conditions start with `0` and fail on the first view outside
 * its bytes or the first long out of its member's range. */
#define SCALAR_OUT(slot, m) v[slot] = (jlong)src->m;
#define SCALAR_IN(slot, m) || to_unsigned(v[slot], &src->m, sizeof src->m) != 0
#define SPAN_OUT(o, n, m)                                                                          \
  v[o] = (jlong)src->m.offset;                                                                     \
  v[n] = (jlong)src->m.len;
#define VIEW_IN(o, n, m) || view_in(in, src->m.ptr, src->m.len, &v[o], &v[n]) != 0
#define VIEW_WS(o, n, m) || ws_view(env, ws, src->m.ptr, src->m.len, &v[o], &v[n]) != 0

static void limits_to_longs(const mrtr_call_limits *src, jlong *v) {
  MRTR_JNI_LIMITS_SCALARS(SCALAR_OUT)
}

/* Reads limits from a long[LIMITS_LEN]; NULL array: *has = 0 (defaults). */
static jint limits_from_longs(JNIEnv *env, jlongArray arr, mrtr_call_limits *src, int *has) {
  *has = 0;
  if (arr == NULL) {
    return MRTR_OK;
  }
  if ((*env)->GetArrayLength(env, arr) < LIMITS_LEN) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  jlong v[LIMITS_LEN];
  (*env)->GetLongArrayRegion(env, arr, 0, LIMITS_LEN, v);
  if (0 MRTR_JNI_LIMITS_SCALARS(SCALAR_IN)) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  *has = 1;
  return MRTR_OK;
}

/* int callLimitsDefault(long[] out): out[0..LIMITS_LEN) the limits, LIMITS_* order. */
JNIEXPORT jint JNI_FN(callLimitsDefault)(JNIEnv *env, jclass cls, jlongArray out) {
  (void)cls;
  jint st = longs_check(env, out, LIMITS_LEN);
  if (st != MRTR_OK) {
    return st;
  }
  mrtr_call_limits l;
  st = (jint)mrtr_call_limits_default(&l);
  if (st == MRTR_OK) {
    jlong v[LIMITS_LEN];
    limits_to_longs(&l, v);
    longs_put(env, out, v, LIMITS_LEN);
  }
  return st;
}

/* int callWorkspaceSize(long[] limits or null, long[] out): out[0] bytes. */
JNIEXPORT jint JNI_FN(callWorkspaceSize)(JNIEnv *env, jclass cls, jlongArray limits,
                                         jlongArray out) {
  (void)cls;
  jint st = longs_check(env, out, 1);
  if (st != MRTR_OK) {
    return st;
  }
  mrtr_call_limits l;
  int has;
  if ((st = limits_from_longs(env, limits, &l, &has)) != MRTR_OK) {
    return st;
  }
  size_t size = 0;
  st = (jint)mrtr_call_workspace_size(has ? &l : NULL, &size);
  if (st == MRTR_OK) {
    jlong v = (jlong)size;
    longs_put(env, out, &v, 1);
  }
  return st;
}

/* int callInit(ByteBuffer ws, int method, byte[] params or null, int caps,
 *              byte[] clientName or null, byte[] clientVersion or null,
 *              int flags, long firstId, long[] limits or null,
 *              int taskDialect, byte[] taskId or null, long taskPollMs, long[] out,
 *              String[] reason or null)
 * out[0]: the workspace size needed on MRTR_ERR_WORKSPACE_TOO_SMALL;
 * reason[0]: the cause the library names for a refusal (out_reason). */
JNIEXPORT jint JNI_FN(callInit)(JNIEnv *env, jclass cls, jobject ws, jint method,
                                jbyteArray params, jint caps, jbyteArray client_name,
                                jbyteArray client_version, jint flags, jlong first_id,
                                jlongArray limits, jint task_dialect, jbyteArray task_id,
                                jlong task_poll_ms, jlongArray out, jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, out, 1);
  if (st != MRTR_OK) {
    return st;
  }
  size_t cap = 0;
  uint8_t *base = ws_base(env, ws, &cap);
  if (base == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  mrtr_call_limits l;
  int has;
  if ((st = limits_from_longs(env, limits, &l, &has)) != MRTR_OK) {
    return st;
  }
  if (task_poll_ms < 0) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  if (task_dialect == 0 && params == NULL) {
    return MRTR_ERR_NULL_POINTER; /* a call needs its params */
  }
  jbytes p, n, v, t;
  if (bytes_open(env, params, &p) != 0) {
    return MRTR_ERR_INTERNAL;
  }
  if (bytes_open(env, client_name, &n) != 0) {
    bytes_close(env, &p, 0);
    return MRTR_ERR_INTERNAL;
  }
  if (bytes_open(env, client_version, &v) != 0) {
    bytes_close(env, &n, 0);
    bytes_close(env, &p, 0);
    return MRTR_ERR_INTERNAL;
  }
  if (bytes_open(env, task_id, &t) != 0) {
    bytes_close(env, &v, 0);
    bytes_close(env, &n, 0);
    bytes_close(env, &p, 0);
    return MRTR_ERR_INTERNAL;
  }
  size_t needed = 0;
  mrtr_call_config cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.method = (uint32_t)method;
  cfg.params = str_of(&p);
  cfg.caps = (uint32_t)caps;
  cfg.client_name = opt_str_of(&n);
  cfg.client_version = opt_str_of(&v);
  cfg.flags = (uint32_t)flags;
  cfg.first_id = (int64_t)first_id;
  cfg.limits = has ? &l : NULL;
  cfg.out_needed = &needed;
  cfg.task_dialect = (uint32_t)task_dialect;
  cfg.task_id = str_of(&t);
  cfg.task_poll_ms = (uint64_t)task_poll_ms;
  const char *why = NULL;
  cfg.out_reason = &why;
  mrtr_call *call = NULL;
  st = (jint)mrtr_call_init(base, cap, &cfg, &call);
  bytes_close(env, &t, 0);
  bytes_close(env, &v, 0);
  bytes_close(env, &n, 0);
  bytes_close(env, &p, 0);
  if (st == MRTR_OK && (void *)call != (void *)base) {
    return MRTR_ERR_INTERNAL; /* handles are the workspace's address */
  }
  if (st == MRTR_ERR_WORKSPACE_TOO_SMALL) {
    jlong nv = (jlong)needed;
    longs_put(env, out, &nv, 1);
  }
  if (st != MRTR_OK && why != NULL && reason != NULL &&
      (*env)->GetArrayLength(env, reason) >= 1) {
    jstring text = (*env)->NewStringUTF(env, why); /* a static ASCII name */
    if (text != NULL) {
      (*env)->SetObjectArrayElement(env, reason, 0, text);
    }
  }
  return st;
}


static void event_to_longs(const mrtr_event *src, jlong *v) {
  MRTR_JNI_EVENT_SCALARS(SCALAR_OUT)
  MRTR_JNI_EVENT_VIEWS(SPAN_OUT)
}

/* One JNI entry per C function of the call. */
/* Every function on a call below takes a trailing `String[] reason` (null:
 * not wanted) that call_why fills on a failure of the C function. */

/* int callWriteRequest(ByteBuffer ws, long id, byte[] out or null, long[] written,
 *                      String[] reason) */
JNIEXPORT jint JNI_FN(callWriteRequest)(JNIEnv *env, jclass cls, jobject ws, jlong id,
                                        jbyteArray out, jlongArray written, jobjectArray reason) {
  (void)cls;
  OUT_BEGIN(env, out, written);
  mrtr_call *c = (mrtr_call *)ws_object(env, ws);
  jint st = call_why(env, c,
                     (jint)mrtr_call_write_request(c, (int64_t)id, OUT_PTR, OUT_LEN, OUT_WRITTEN),
                     reason);
  OUT_END(env, written, st);
  return st;
}

/* int callResend(ByteBuffer ws, long id, byte[] out or null, long[] written, String[] reason) */
JNIEXPORT jint JNI_FN(callResend)(JNIEnv *env, jclass cls, jobject ws, jlong id, jbyteArray out,
                                  jlongArray written, jobjectArray reason) {
  (void)cls;
  OUT_BEGIN(env, out, written);
  mrtr_call *c = (mrtr_call *)ws_object(env, ws);
  jint st = call_why(env, c, (jint)mrtr_call_resend(c, (int64_t)id, OUT_PTR, OUT_LEN, OUT_WRITTEN),
                     reason);
  OUT_END(env, written, st);
  return st;
}

/* int callFeed(ByteBuffer ws, byte[] msg, long[] out): out[0..16) the event:
 * kind, input count, wait ms, error code, result off/len, error message
 * off/len, error data off/len, task id off/len (offsets into msg), task
 * dialect, task status, task poll ms, has poll ms; reason[0] the cause of a
 * failure (call_why). */
JNIEXPORT jint JNI_FN(callFeed)(JNIEnv *env, jclass cls, jobject ws, jbyteArray msg,
                                jlongArray out, jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, out, EVENT_LEN);
  if (st != MRTR_OK) {
    return st;
  }
  jbytes m;
  PIN_REQUIRED(env, msg, &m);
  mrtr_event ev;
  memset(&ev, 0, sizeof ev);
  mrtr_call *c = (mrtr_call *)ws_object(env, ws);
  st = call_why(env, c, (jint)mrtr_call_feed(c, (const uint8_t *)m.ptr, (size_t)m.len, &ev),
                reason);
  bytes_close(env, &m, 0);
  if (st == MRTR_OK) {
    jlong v[EVENT_LEN];
    event_to_longs(&ev, v);
    longs_put(env, out, v, EVENT_LEN);
  }
  return st;
}

/* The run steps: the core's loop (mrtr_runner_*); the runner lives in a
 * workspace of its own (runnerSize bytes). */
JNIEXPORT jlong JNI_FN(runnerSize)(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  return (jlong)sizeof(mrtr_runner);
}

JNIEXPORT jint JNI_FN(runDefaultMaxUnrelated)(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  return (jint)MRTR_RUN_DEFAULT_MAX_UNRELATED;
}

/* The runner in workspace `rws`, or NULL when it is too small for one. */
static mrtr_runner *runner_of(JNIEnv *env, jobject rws) {
  size_t cap = 0;
  uint8_t *p = ws_base(env, rws, &cap);
  return cap >= sizeof(mrtr_runner) ? (mrtr_runner *)(void *)p : NULL;
}

/* int runnerInit(ByteBuffer ws, ByteBuffer rws, long firstId, long idStep, int maxUnrelated,
 *                String[] reason) */
JNIEXPORT jint JNI_FN(runnerInit)(JNIEnv *env, jclass cls, jobject ws, jobject rws, jlong first_id,
                                  jlong id_step, jint max_unrelated, jobjectArray reason) {
  (void)cls;
  if (max_unrelated < 0) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  const mrtr_call *c = (const mrtr_call *)ws_object(env, ws);
  return call_why(env, c,
                  (jint)mrtr_runner_init(runner_of(env, rws), c, (int64_t)first_id,
                                         (int64_t)id_step, (uint32_t)max_unrelated),
                  reason);
}

/* int runnerNext(ByteBuffer ws, ByteBuffer rws, byte[] out, long[] step, String[] reason):
 * step[STEP_*]; on MRTR_ERR_BUFFER_TOO_SMALL step[STEP_REQUEST_LEN] is the
 * size out needs. */
JNIEXPORT jint JNI_FN(runnerNext)(JNIEnv *env, jclass cls, jobject ws, jobject rws,
                                  jbyteArray out, jlongArray step, jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, step, STEP_LEN);
  if (st != MRTR_OK) {
    return st;
  }
  jbytes o;
  PIN_REQUIRED(env, out, &o);
  mrtr_step s;
  memset(&s, 0, sizeof s);
  mrtr_call *c = (mrtr_call *)ws_object(env, ws);
  st = call_why(env, c,
                (jint)mrtr_runner_next(runner_of(env, rws), c, (uint8_t *)o.ptr, (size_t)o.len, &s),
                reason);
  bytes_close(env, &o, st == MRTR_OK);
  if (st == MRTR_OK || st == MRTR_ERR_BUFFER_TOO_SMALL) {
    jlong v[STEP_LEN];
    const mrtr_step *src = &s;
    MRTR_JNI_STEP_SCALARS(SCALAR_OUT)
    longs_put(env, step, v, STEP_LEN);
  }
  return st;
}

/* int runnerReceived(ByteBuffer ws, ByteBuffer rws, byte[] msg, long[] event,
 * long[] again, String[] reason): event as callFeed; again[0] 1 when the
 * message was unrelated. */
JNIEXPORT jint JNI_FN(runnerReceived)(JNIEnv *env, jclass cls, jobject ws, jobject rws,
                                      jbyteArray msg, jlongArray event, jlongArray again,
                                      jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, event, EVENT_LEN);
  if (st == MRTR_OK) {
    st = longs_check(env, again, 1);
  }
  if (st != MRTR_OK) {
    return st;
  }
  jbytes m;
  PIN_REQUIRED(env, msg, &m);
  mrtr_event ev;
  memset(&ev, 0, sizeof ev);
  bool a = false;
  mrtr_call *c = (mrtr_call *)ws_object(env, ws);
  st = call_why(env, c,
                (jint)mrtr_runner_received(runner_of(env, rws), c, (const uint8_t *)m.ptr,
                                           (size_t)m.len, &ev, &a),
                reason);
  bytes_close(env, &m, 0);
  if (st == MRTR_OK) {
    jlong v[EVENT_LEN];
    event_to_longs(&ev, v);
    longs_put(env, event, v, EVENT_LEN);
    jlong g = a ? 1 : 0;
    longs_put(env, again, &g, 1);
  }
  return st;
}

/* int runnerAnswered(ByteBuffer ws, ByteBuffer rws, long index, int reply, String[] reason) */
JNIEXPORT jint JNI_FN(runnerAnswered)(JNIEnv *env, jclass cls, jobject ws, jobject rws,
                                      jlong index, jint reply, jobjectArray reason) {
  (void)cls;
  size_t i;
  if (to_size(index, &i) != 0) {
    return MRTR_ERR_NOT_FOUND;
  }
  mrtr_call *c = (mrtr_call *)ws_object(env, ws);
  return call_why(env, c, (jint)mrtr_runner_answered(runner_of(env, rws), c, i, (int32_t)reply),
                  reason);
}

/* int callInputAt(ByteBuffer ws, long index, long[] out): out[0..11) kind,
 * max tokens, escaped bits, has tools, wants context, has system prompt,
 * answered, requested schema off/len, params off/len (offsets into ws; the
 * text fields are read with callInputText); reason as call_why. */
JNIEXPORT jint JNI_FN(callInputAt)(JNIEnv *env, jclass cls, jobject ws, jlong index,
                                   jlongArray out, jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, out, INPUT_LEN);
  if (st != MRTR_OK) {
    return st;
  }
  size_t i;
  if (to_size(index, &i) != 0) {
    return MRTR_ERR_NOT_FOUND;
  }
  mrtr_input in;
  memset(&in, 0, sizeof in);
  const mrtr_call *c = (const mrtr_call *)ws_object(env, ws);
  st = call_why(env, c, (jint)mrtr_call_input_at(c, i, &in), reason);
  if (st != MRTR_OK) {
    return st;
  }
  jlong v[INPUT_LEN];
  const mrtr_input *src = &in;
  MRTR_JNI_INPUT_SCALARS(SCALAR_OUT)
  if (0 MRTR_JNI_INPUT_VIEWS(VIEW_WS)) {
    return MRTR_ERR_INTERNAL;
  }
  longs_put(env, out, v, INPUT_LEN);
  return MRTR_OK;
}

/* int callInputFind(ByteBuffer ws, byte[] key, long[] out, String[] reason): out[0] the index. */
JNIEXPORT jint JNI_FN(callInputFind)(JNIEnv *env, jclass cls, jobject ws, jbyteArray key,
                                     jlongArray out, jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, out, 1);
  if (st != MRTR_OK) {
    return st;
  }
  jbytes k;
  PIN_REQUIRED(env, key, &k);
  size_t i = 0;
  const mrtr_call *c = (const mrtr_call *)ws_object(env, ws);
  st = call_why(env, c, (jint)mrtr_call_input_find(c, str_of(&k), &i), reason);
  bytes_close(env, &k, 0);
  if (st == MRTR_OK) {
    jlong v = (jlong)i;
    longs_put(env, out, &v, 1);
  }
  return st;
}

/* int callInputText(ByteBuffer ws, long index, int field, byte[] out or null, long[] written,
 *                   String[] reason) */
JNIEXPORT jint JNI_FN(callInputText)(JNIEnv *env, jclass cls, jobject ws, jlong index,
                                     jint field, jbyteArray out, jlongArray written,
                                     jobjectArray reason) {
  (void)cls;
  size_t i;
  if (to_size(index, &i) != 0) {
    return MRTR_ERR_NOT_FOUND;
  }
  OUT_BEGIN(env, out, written);
  const mrtr_call *c = (const mrtr_call *)ws_object(env, ws);
  jint st = call_why(
      env, c, (jint)mrtr_call_input_text(c, i, (uint32_t)field, OUT_PTR, OUT_LEN, OUT_WRITTEN),
      reason);
  OUT_END(env, written, st);
  return st;
}

/* int callAnswerElicit(ByteBuffer ws, long index, int action, byte[] content or null,
 *                      String[] reason) */
JNIEXPORT jint JNI_FN(callAnswerElicit)(JNIEnv *env, jclass cls, jobject ws, jlong index,
                                        jint action, jbyteArray content, jobjectArray reason) {
  (void)cls;
  size_t i;
  if (to_size(index, &i) != 0) {
    return MRTR_ERR_NOT_FOUND;
  }
  jbytes c;
  if (bytes_open(env, content, &c) != 0) {
    return MRTR_ERR_INTERNAL;
  }
  mrtr_call *h = (mrtr_call *)ws_object(env, ws);
  jint st = call_why(env, h, (jint)mrtr_call_answer_elicit(h, i, (uint32_t)action, str_of(&c)),
                     reason);
  bytes_close(env, &c, 0);
  return st;
}

/* int callAnswerJson(ByteBuffer ws, long index, byte[] json, String[] reason) */
JNIEXPORT jint JNI_FN(callAnswerJson)(JNIEnv *env, jclass cls, jobject ws, jlong index,
                                      jbyteArray json, jobjectArray reason) {
  (void)cls;
  size_t i;
  if (to_size(index, &i) != 0) {
    return MRTR_ERR_NOT_FOUND;
  }
  jbytes j;
  PIN_REQUIRED(env, json, &j);
  mrtr_call *c = (mrtr_call *)ws_object(env, ws);
  jint st = call_why(env, c, (jint)mrtr_call_answer_json(c, i, str_of(&j)), reason);
  bytes_close(env, &j, 0);
  return st;
}

/* int callAnswerRoots(ByteBuffer ws, long index, byte[][] uris, byte[][] names,
 *                     String[] reason)
 * names[i] null: no name. More than MRTR_MAX_ROOTS roots is
 * MRTR_ERR_LIMIT_EXCEEDED, as the C function says. */
JNIEXPORT jint JNI_FN(callAnswerRoots)(JNIEnv *env, jclass cls, jobject ws, jlong index,
                                       jobjectArray uris, jobjectArray names,
                                       jobjectArray reason) {
  (void)cls;
  size_t i;
  if (to_size(index, &i) != 0) {
    return MRTR_ERR_NOT_FOUND;
  }
  if (uris == NULL || names == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  jsize n = (*env)->GetArrayLength(env, uris);
  if ((*env)->GetArrayLength(env, names) != n) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  if (n > MRTR_MAX_ROOTS) {
    return MRTR_ERR_LIMIT_EXCEEDED;
  }
  if ((*env)->EnsureLocalCapacity(env, 2 * n + 4) != 0) {
    return MRTR_ERR_INTERNAL;
  }
  jbytes u[MRTR_MAX_ROOTS], nm[MRTR_MAX_ROOTS];
  mrtr_root roots[MRTR_MAX_ROOTS];
  jsize opened = 0;
  jint st = MRTR_OK;
  for (; opened < n; opened++) {
    jbyteArray ua = (jbyteArray)(*env)->GetObjectArrayElement(env, uris, opened);
    jbyteArray na = (jbyteArray)(*env)->GetObjectArrayElement(env, names, opened);
    if (ua == NULL) {
      st = MRTR_ERR_NULL_POINTER;
    } else if (bytes_open(env, ua, &u[opened]) != 0) {
      st = MRTR_ERR_INTERNAL;
    } else if (bytes_open(env, na, &nm[opened]) != 0) {
      bytes_close(env, &u[opened], 0);
      st = MRTR_ERR_INTERNAL;
    }
    if (st != MRTR_OK) {
      break;
    }
    roots[opened].uri = str_of(&u[opened]);
    roots[opened].name = opt_str_of(&nm[opened]);
  }
  if (st == MRTR_OK) {
    mrtr_call *c = (mrtr_call *)ws_object(env, ws);
    st = call_why(env, c, (jint)mrtr_call_answer_roots(c, i, roots, (size_t)n), reason);
  }
  /* The elements' local references (reserved above) go at return. */
  while (opened > 0) {
    opened--;
    bytes_close(env, &nm[opened], 0);
    bytes_close(env, &u[opened], 0);
  }
  return st;
}

/* int callAnswerError(ByteBuffer ws, long index, long code, String[] reason) */
JNIEXPORT jint JNI_FN(callAnswerError)(JNIEnv *env, jclass cls, jobject ws, jlong index,
                                       jlong code, jobjectArray reason) {
  (void)cls;
  size_t i;
  if (to_size(index, &i) != 0) {
    return MRTR_ERR_NOT_FOUND;
  }
  mrtr_call *c = (mrtr_call *)ws_object(env, ws);
  return call_why(env, c, (jint)mrtr_call_answer_error(c, i, (int64_t)code), reason);
}

/* int callResult(ByteBuffer ws, byte[] fed, long[] out, String[] reason): out[0..2)
 * the result's offset and length in fed. */
JNIEXPORT jint JNI_FN(callResult)(JNIEnv *env, jclass cls, jobject ws, jbyteArray fed,
                                  jlongArray out, jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, out, 2);
  if (st != MRTR_OK) {
    return st;
  }
  jbytes f;
  PIN_REQUIRED(env, fed, &f);
  mrtr_str r = {NULL, 0};
  const mrtr_call *c = (const mrtr_call *)ws_object(env, ws);
  st = call_why(env, c, (jint)mrtr_call_result(c, (const uint8_t *)f.ptr, (size_t)f.len, &r),
                reason);
  jlong v[2] = {0, 0};
  if (st == MRTR_OK && view_in(&f, r.ptr, r.len, &v[0], &v[1]) != 0) {
    st = MRTR_ERR_INTERNAL;
  }
  bytes_close(env, &f, 0);
  if (st == MRTR_OK) {
    longs_put(env, out, v, 2);
  }
  return st;
}

/* int callSave(ByteBuffer ws, byte[] out or null, long[] written, String[] reason) */
JNIEXPORT jint JNI_FN(callSave)(JNIEnv *env, jclass cls, jobject ws, jbyteArray out,
                                jlongArray written, jobjectArray reason) {
  (void)cls;
  OUT_BEGIN(env, out, written);
  const mrtr_call *c = (const mrtr_call *)ws_object(env, ws);
  jint st = call_why(env, c, (jint)mrtr_call_save(c, OUT_PTR, OUT_LEN, OUT_WRITTEN), reason);
  OUT_END(env, written, st);
  return st;
}

/* int callFailure(ByteBuffer ws, long[] out, String[] reason): out[0..7)
 * status, kind, offset, index, code, needed, limit; reason[0] the cause. */
JNIEXPORT jint JNI_FN(callFailure)(JNIEnv *env, jclass cls, jobject ws, jlongArray out,
                                   jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, out, FAILURE_LEN);
  if (st != MRTR_OK) {
    return st;
  }
  mrtr_failure f;
  memset(&f, 0, sizeof f);
  st = (jint)mrtr_call_failure((const mrtr_call *)ws_object(env, ws), &f);
  if (st == MRTR_OK) {
    jlong v[FAILURE_LEN];
    const mrtr_failure *src = &f;
    MRTR_JNI_FAILURE_SCALARS(SCALAR_OUT)
    longs_put(env, out, v, FAILURE_LEN);
    str_out(env, reason, f.reason);
  }
  return st;
}

/* int callWriteCancel(ByteBuffer ws, long id, byte[] out or null, long[] written,
 *                     String[] reason) */
JNIEXPORT jint JNI_FN(callWriteCancel)(JNIEnv *env, jclass cls, jobject ws, jlong id,
                                       jbyteArray out, jlongArray written, jobjectArray reason) {
  (void)cls;
  OUT_BEGIN(env, out, written);
  mrtr_call *c = (mrtr_call *)ws_object(env, ws);
  jint st = call_why(env, c,
                     (jint)mrtr_call_write_cancel(c, (int64_t)id, OUT_PTR, OUT_LEN, OUT_WRITTEN),
                     reason);
  OUT_END(env, written, st);
  return st;
}

/* int callProgress(ByteBuffer ws, long[] out, String[] reason): out[0..PROGRESS_LEN)
 * the mrtr_progress, PROGRESS_* order (views as offset/length into ws). */
JNIEXPORT jint JNI_FN(callProgress)(JNIEnv *env, jclass cls, jobject ws, jlongArray out,
                                    jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, out, PROGRESS_LEN);
  if (st != MRTR_OK) {
    return st;
  }
  mrtr_progress p;
  memset(&p, 0, sizeof p);
  const mrtr_call *c = (const mrtr_call *)ws_object(env, ws);
  st = call_why(env, c, (jint)mrtr_call_progress(c, &p), reason);
  if (st != MRTR_OK) {
    return st;
  }
  jlong v[PROGRESS_LEN];
  const mrtr_progress *src = &p;
  MRTR_JNI_PROGRESS_SCALARS(SCALAR_OUT)
  if (0 MRTR_JNI_PROGRESS_VIEWS(VIEW_WS)) {
    return MRTR_ERR_INTERNAL;
  }
  longs_put(env, out, v, PROGRESS_LEN);
  return MRTR_OK;
}


/* int callRestore(ByteBuffer ws, long[] limits or null, byte[] saved, String[] reason or null)
 * reason[0]: the cause mrtr_call_restore names for a refusal (out_reason). */
JNIEXPORT jint JNI_FN(callRestore)(JNIEnv *env, jclass cls, jobject ws, jlongArray limits,
                                   jbyteArray saved, jobjectArray reason) {
  (void)cls;
  size_t cap = 0;
  uint8_t *base = ws_base(env, ws, &cap);
  if (base == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  mrtr_call_limits l;
  int has;
  jint st = limits_from_longs(env, limits, &l, &has);
  if (st != MRTR_OK) {
    return st;
  }
  jbytes s;
  PIN_REQUIRED(env, saved, &s);
  mrtr_call *call = NULL;
  const char *why = NULL;
  st = (jint)mrtr_call_restore(base, cap, has ? &l : NULL, (const uint8_t *)s.ptr, (size_t)s.len,
                               &call, &why);
  bytes_close(env, &s, 0);
  if (st == MRTR_OK && (void *)call != (void *)base) {
    return MRTR_ERR_INTERNAL;
  }
  if (st != MRTR_OK) {
    str_out(env, reason, why);
  }
  return st;
}

/* ------------------------------------------------------------ forms */


/* int formParse(byte[] schema, long[] out, long[] err, String[] reason)
 * out[0]: field count. On MRTR_ERR_INVALID_SCHEMA: err[0..6) property
 * off/len (into schema), property escaped, keyword off/len, default error;
 * reason[0] the error's name. */
JNIEXPORT jint JNI_FN(formParse)(JNIEnv *env, jclass cls, jbyteArray schema, jlongArray out,
                                 jlongArray err, jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, out, 1);
  if (st != MRTR_OK || (st = longs_check(env, err, SCHEMA_ERROR_LEN)) != MRTR_OK) {
    return st;
  }
  jbytes s;
  PIN_REQUIRED(env, schema, &s);
  size_t n = 0;
  mrtr_schema_error e;
  memset(&e, 0, sizeof e);
  st = (jint)mrtr_form_parse(str_of(&s), &n, &e);
  jlong v[SCHEMA_ERROR_LEN] = {0};
  const mrtr_schema_error *src = &e;
  const jbytes *in = &s;
  MRTR_JNI_SCHEMA_ERROR_SCALARS(SCALAR_OUT)
  if (st == MRTR_ERR_INVALID_SCHEMA && (0 MRTR_JNI_SCHEMA_ERROR_VIEWS(VIEW_IN))) {
    st = MRTR_ERR_INTERNAL;
  }
  bytes_close(env, &s, 0);
  if (st == MRTR_OK) {
    jlong c = (jlong)n;
    longs_put(env, out, &c, 1);
  } else if (st == MRTR_ERR_INVALID_SCHEMA) {
    longs_put(env, err, v, SCHEMA_ERROR_LEN);
    str_out(env, reason, e.reason);
  }
  return st;
}


/* int formFieldAt(byte[] schema, long index, long[] out): out[0..22)
 * escaped, index, kind, format, required, has min length, has max length,
 * has minimum, has maximum, has min items, has max items, min length, max
 * length, min items, max items, option count, default off/len, minimum
 * off/len, maximum off/len (the exact decimal texts; all offsets into
 * schema). Texts: formText. */
JNIEXPORT jint JNI_FN(formFieldAt)(JNIEnv *env, jclass cls, jbyteArray schema, jlong index,
                                   jlongArray out) {
  (void)cls;
  jint st = longs_check(env, out, FIELD_LEN);
  if (st != MRTR_OK) {
    return st;
  }
  size_t i;
  if (to_size(index, &i) != 0) {
    return MRTR_ERR_NOT_FOUND;
  }
  jbytes s;
  PIN_REQUIRED(env, schema, &s);
  mrtr_form_field f;
  memset(&f, 0, sizeof f);
  st = (jint)mrtr_form_field_at(str_of(&s), i, &f);
  jlong v[FIELD_LEN];
  if (st == MRTR_OK) {
    const mrtr_form_field *src = &f;
    const jbytes *in = &s;
    MRTR_JNI_FIELD_SCALARS(SCALAR_OUT)
    if (0 MRTR_JNI_FIELD_VIEWS(VIEW_IN)) {
      st = MRTR_ERR_INTERNAL;
    }
  }
  bytes_close(env, &s, 0);
  if (st == MRTR_OK) {
    longs_put(env, out, v, FIELD_LEN);
  }
  return st;
}

/* int formOptionAt(byte[] schema, long field, long option, long[] out):
 * out[0..2) escaped, has title. Texts: formText. */
JNIEXPORT jint JNI_FN(formOptionAt)(JNIEnv *env, jclass cls, jbyteArray schema, jlong field,
                                    jlong option, jlongArray out) {
  (void)cls;
  jint st = longs_check(env, out, 2);
  if (st != MRTR_OK) {
    return st;
  }
  size_t fi, oi;
  if (to_size(field, &fi) != 0 || to_size(option, &oi) != 0) {
    return MRTR_ERR_NOT_FOUND;
  }
  jbytes s;
  PIN_REQUIRED(env, schema, &s);
  mrtr_form_option o;
  memset(&o, 0, sizeof o);
  st = (jint)mrtr_form_option_at(str_of(&s), fi, oi, &o);
  bytes_close(env, &s, 0);
  if (st == MRTR_OK) {
    jlong v[2] = {(jlong)o.escaped, (jlong)o.has_title};
    longs_put(env, out, v, 2);
  }
  return st;
}

/* int formText(byte[] schema, long field, long option, int which, byte[] out or null, long[] written) */
JNIEXPORT jint JNI_FN(formText)(JNIEnv *env, jclass cls, jbyteArray schema, jlong field,
                                jlong option, jint which, jbyteArray out, jlongArray written) {
  (void)cls;
  size_t fi, oi;
  if (to_size(field, &fi) != 0 || to_size(option, &oi) != 0) {
    return MRTR_ERR_NOT_FOUND;
  }
  if (schema == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  jbytes s;
  if (bytes_open(env, schema, &s) != 0) {
    return MRTR_ERR_INTERNAL;
  }
  jint st_outer;
  {
    OUT_BEGIN(env, out, written);
    st_outer = (jint)mrtr_form_text(str_of(&s), fi, oi, (uint32_t)which, OUT_PTR, OUT_LEN,
                                    OUT_WRITTEN, NULL);
    OUT_END(env, written, st_outer);
  }
  bytes_close(env, &s, 0);
  return st_outer;
}


/* int formValidate(byte[] schema, byte[] content, long[] err, String[] reason)
 * On MRTR_ERR_INVALID_VALUE: err[0..7) field source (0 schema, 1 content),
 * field off/len, field escaped, field index (-1: none), error, bound;
 * reason[0] the error's name. */
JNIEXPORT jint JNI_FN(formValidate)(JNIEnv *env, jclass cls, jbyteArray schema,
                                    jbyteArray content, jlongArray err, jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, err, FORM_ERROR_LEN);
  if (st != MRTR_OK) {
    return st;
  }
  jbytes s, c;
  PIN_REQUIRED(env, schema, &s);
  if (content == NULL) {
    bytes_close(env, &s, 0);
    return MRTR_ERR_NULL_POINTER;
  }
  if (bytes_open(env, content, &c) != 0) {
    bytes_close(env, &s, 0);
    return MRTR_ERR_INTERNAL;
  }
  mrtr_form_error e;
  memset(&e, 0, sizeof e);
  st = (jint)mrtr_form_validate(str_of(&s), str_of(&c), &e);
  jlong v[FORM_ERROR_LEN] = {0};
  const mrtr_form_error *src = &e;
  MRTR_JNI_FORM_ERROR_SCALARS(SCALAR_OUT)
  v[FORM_ERROR_INDEX] = e.field_index == SIZE_MAX ? -1 : (jlong)e.field_index;
  if (st == MRTR_ERR_INVALID_VALUE) {
    if (view_in(&s, e.field.ptr, e.field.len, &v[FORM_ERROR_FIELD_OFF],
                &v[FORM_ERROR_FIELD_LEN]) == 0) {
      v[FORM_ERROR_SOURCE] = 0;
    } else if (view_in(&c, e.field.ptr, e.field.len, &v[FORM_ERROR_FIELD_OFF],
                       &v[FORM_ERROR_FIELD_LEN]) == 0) {
      v[FORM_ERROR_SOURCE] = 1;
    } else {
      st = MRTR_ERR_INTERNAL;
    }
  }
  bytes_close(env, &c, 0);
  bytes_close(env, &s, 0);
  if (st == MRTR_ERR_INVALID_VALUE) {
    longs_put(env, err, v, FORM_ERROR_LEN);
    str_out(env, reason, e.reason);
  }
  return st;
}

/* ------------------------------------------------------------ json decode */

/* int jsonDecodeString(byte[] token, int off, int len, byte[] out or null, long[] written) */
JNIEXPORT jint JNI_FN(jsonDecodeString)(JNIEnv *env, jclass cls, jbyteArray token, jint off,
                                        jint len, jbyteArray out, jlongArray written) {
  (void)cls;
  if (token == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  jbytes t;
  if (bytes_open(env, token, &t) != 0) {
    return MRTR_ERR_INTERNAL;
  }
  const uint8_t *p;
  size_t n;
  if (bytes_range(&t, off, len, &p, &n) != 0) {
    bytes_close(env, &t, 0);
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  jint st_outer;
  {
    OUT_BEGIN(env, out, written);
    st_outer = (jint)mrtr_json_decode_string(p, n, OUT_PTR, OUT_LEN, OUT_WRITTEN);
    OUT_END(env, written, st_outer);
  }
  bytes_close(env, &t, 0);
  return st_outer;
}

/* ------------------------------------------------------------ tools, versions */

/* int toolHeaderCheck(byte[] inputSchema, long[] out)
 * MRTR_OK: out[0] the number of x-mcp-header designations. */
JNIEXPORT jint JNI_FN(toolHeaderCheck)(JNIEnv *env, jclass cls, jbyteArray schema, jlongArray out) {
  (void)cls;
  jint st = longs_check(env, out, 1);
  if (st != MRTR_OK) {
    return st;
  }
  jbytes s;
  PIN_REQUIRED(env, schema, &s);
  size_t n = 0;
  st = (jint)mrtr_tool_header_check(str_of(&s), &n);
  bytes_close(env, &s, 0);
  if (st == MRTR_OK) {
    jlong c = (jlong)n;
    longs_put(env, out, &c, 1);
  }
  return st;
}

/* int toolList(byte[] result, long[] out)
 * MRTR_OK: out[TOOL_LIST_*]: the tool count, and the nextCursor JSON token
 * as off/len into result when TOOL_LIST_HAS_CURSOR. */
JNIEXPORT jint JNI_FN(toolList)(JNIEnv *env, jclass cls, jbyteArray result, jlongArray out) {
  (void)cls;
  jint st = longs_check(env, out, TOOL_LIST_LEN);
  if (st != MRTR_OK) {
    return st;
  }
  jbytes r;
  PIN_REQUIRED(env, result, &r);
  size_t count = 0;
  mrtr_str cursor = {NULL, 0};
  st = (jint)mrtr_tool_list((const uint8_t *)r.ptr, (size_t)r.len, &count, &cursor, NULL);
  jlong v[TOOL_LIST_LEN];
  memset(v, 0, sizeof v);
  if (st == MRTR_OK) {
    v[TOOL_LIST_COUNT] = (jlong)count;
    v[TOOL_LIST_HAS_CURSOR] = cursor.ptr != NULL;
    if (cursor.ptr != NULL && view_in(&r, cursor.ptr, cursor.len, &v[TOOL_LIST_CURSOR_OFF],
                                      &v[TOOL_LIST_CURSOR_LEN]) != 0) {
      st = MRTR_ERR_INTERNAL;
    }
  }
  bytes_close(env, &r, 0);
  if (st == MRTR_OK) {
    longs_put(env, out, v, TOOL_LIST_LEN);
  }
  return st;
}

/* The slots of one tool read with status `st` (views into `r`): TOOL_LEN
 * longs, zero unless `st` is MRTR_OK. Returns `st`, or MRTR_ERR_INTERNAL
 * for a view outside `r`. */
static jint tool_slots(const jbytes *in, jint st, const mrtr_tool *src, jlong *v) {
  memset(v, 0, sizeof(jlong) * TOOL_LEN);
  if (st != MRTR_OK) {
    return st;
  }
  MRTR_JNI_TOOL_SCALARS(SCALAR_OUT)
  return 0 MRTR_JNI_TOOL_VIEWS(VIEW_IN) ? MRTR_ERR_INTERNAL : st;
}

/* int toolAt(byte[] result, long index, long[] out)
 * MRTR_OK: out[TOOL_*]: the name's JSON token and the inputSchema as
 * off/len into result, whether the tool may be called, its designations. */
JNIEXPORT jint JNI_FN(toolAt)(JNIEnv *env, jclass cls, jbyteArray result, jlong index,
                              jlongArray out) {
  (void)cls;
  jint st = longs_check(env, out, TOOL_LEN);
  if (st != MRTR_OK) {
    return st;
  }
  if (index < 0) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  jbytes r;
  PIN_REQUIRED(env, result, &r);
  mrtr_tool t;
  memset(&t, 0, sizeof t);
  st = (jint)mrtr_tool_at((const uint8_t *)r.ptr, (size_t)r.len, (size_t)index, &t, NULL);
  jlong v[TOOL_LEN];
  st = tool_slots(&r, st, &t, v);
  bytes_close(env, &r, 0);
  if (st == MRTR_OK) {
    longs_put(env, out, v, TOOL_LEN);
  }
  return st;
}

/* A cursor's long[] image and back (-1: a long out of its member's range). */
static int cursor_read(const jlong *v, mrtr_tool_cursor *src) {
  return 0 MRTR_JNI_TOOL_CURSOR_SCALARS(SCALAR_IN);
}

static void cursor_write(const mrtr_tool_cursor *src, jlong *v) {
  MRTR_JNI_TOOL_CURSOR_SCALARS(SCALAR_OUT)
}

/* int toolNext(byte[] result, long[] cursor, long[] out)
 * cursor[TOOL_CURSOR_*]: an mrtr_tool_cursor (all 0 to start), updated.
 * MRTR_OK: out[TOOL_*] as toolAt. */
JNIEXPORT jint JNI_FN(toolNext)(JNIEnv *env, jclass cls, jbyteArray result, jlongArray cursor,
                                jlongArray out) {
  (void)cls;
  jint st = longs_check(env, out, TOOL_LEN);
  if (st == MRTR_OK) {
    st = longs_check(env, cursor, TOOL_CURSOR_LEN);
  }
  if (st != MRTR_OK) {
    return st;
  }
  jlong c[TOOL_CURSOR_LEN];
  (*env)->GetLongArrayRegion(env, cursor, 0, TOOL_CURSOR_LEN, c);
  mrtr_tool_cursor at;
  if (cursor_read(c, &at) != 0) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  jbytes r;
  PIN_REQUIRED(env, result, &r);
  mrtr_tool t;
  memset(&t, 0, sizeof t);
  st = (jint)mrtr_tool_next((const uint8_t *)r.ptr, (size_t)r.len, &at, &t, NULL);
  jlong v[TOOL_LEN];
  st = tool_slots(&r, st, &t, v);
  bytes_close(env, &r, 0);
  cursor_write(&at, c);
  longs_put(env, cursor, c, TOOL_CURSOR_LEN);
  if (st == MRTR_OK) {
    longs_put(env, out, v, TOOL_LEN);
  }
  return st;
}

/* A Java String from `n` ASCII bytes at `p` (NULL on failure, with an
 * exception pending). */
static jstring ascii_str(JNIEnv *env, const char *p, size_t n) {
  char *z = malloc(n + 1);
  if (z == NULL) {
    return NULL;
  }
  memcpy(z, p, n);
  z[n] = '\0';
  jstring j = (*env)->NewStringUTF(env, z);
  free(z);
  return j;
}

/* The headers of a tools/call POST: the standard ones and at most 64
 * Mcp-Param-* (a tool's most designations). */
#define CAP (MRTR_HTTP_MAX_HEADERS + 64)

/* int httpHeadersForToolCall(byte[] body, byte[] inputSchema, String[] out, long[] count)
 * MRTR_OK: out[2i], out[2i+1] name and value of header i (out holds at
 * least 2 * (MRTR_HTTP_MAX_HEADERS + 64) entries), count[0] their number. */
JNIEXPORT jint JNI_FN(httpHeadersForToolCall)(JNIEnv *env, jclass cls, jbyteArray body,
                                              jbyteArray schema, jobjectArray out,
                                              jlongArray count) {
  (void)cls;
  jint st = longs_check(env, count, 1);
  if (st != MRTR_OK) {
    return st;
  }
  if (out == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  if ((*env)->GetArrayLength(env, out) < 2 * CAP) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  jbytes b, sc;
  PIN_REQUIRED(env, body, &b);
  if (bytes_open(env, schema, &sc) != 0) {
    bytes_close(env, &b, 0);
    return MRTR_ERR_INTERNAL;
  }
  mrtr_http_header h[CAP];
  size_t cap = 1024, written = 0, n = 0;
  uint8_t *buf = malloc(cap);
  st = buf == NULL ? MRTR_ERR_INTERNAL
                   : (jint)mrtr_http_headers_for_tool_call((const uint8_t *)b.ptr, (size_t)b.len,
                                                           str_of(&sc), buf, cap, &written, h,
                                                           CAP, &n, NULL);
  if (st == MRTR_ERR_BUFFER_TOO_SMALL && written > cap) {
    uint8_t *bigger = realloc(buf, written);
    if (bigger == NULL) {
      st = MRTR_ERR_INTERNAL;
    } else {
      buf = bigger;
      cap = written;
      st = (jint)mrtr_http_headers_for_tool_call((const uint8_t *)b.ptr, (size_t)b.len,
                                                 str_of(&sc), buf, cap, &written, h, CAP, &n, NULL);
    }
  }
  if (st == MRTR_OK) {
    for (size_t i = 0; i < n && st == MRTR_OK; i++) {
      jstring name = ascii_str(env, h[i].name.ptr, h[i].name.len);
      jstring value = name == NULL ? NULL : ascii_str(env, h[i].value.ptr, h[i].value.len);
      if (name == NULL || value == NULL) {
        st = MRTR_ERR_INTERNAL;
      } else {
        (*env)->SetObjectArrayElement(env, out, (jsize)(2 * i), name);
        (*env)->SetObjectArrayElement(env, out, (jsize)(2 * i + 1), value);
      }
      if (name != NULL) {
        (*env)->DeleteLocalRef(env, name);
      }
      if (value != NULL) {
        (*env)->DeleteLocalRef(env, value);
      }
    }
  }
  free(buf);
  bytes_close(env, &sc, 0);
  bytes_close(env, &b, 0);
  if (st == MRTR_OK) {
    jlong c = (jlong)n;
    longs_put(env, count, &c, 1);
  }
  return st;
}
#undef CAP

/* int versionRetry(byte[] response, int retries) */
JNIEXPORT jint JNI_FN(versionRetry)(JNIEnv *env, jclass cls, jbyteArray msg, jint retries) {
  (void)cls;
  if (retries < 0) {
    return (jint)MRTR_ERR_INVALID_ARGUMENT;
  }
  jbytes m;
  PIN_REQUIRED(env, msg, &m);
  jint st = (jint)mrtr_version_retry((const uint8_t *)m.ptr, (size_t)m.len, (uint32_t)retries);
  bytes_close(env, &m, 0);
  return st;
}

/* ------------------------------------------------------------ URL consent */


/* int urlConsent(byte[] url, long[] out, long[] refusal, String[] reason)
 * MRTR_OK: out[0..18) scheme, userinfo, host, path, query, fragment as
 * off/len pairs (into url), warnings, port, has port, has userinfo, has
 * query, has fragment. MRTR_ERR_REFUSED_URL: refusal[0..2) offset, has
 * offset; reason[0] the cause. */
JNIEXPORT jint JNI_FN(urlConsent)(JNIEnv *env, jclass cls, jbyteArray url, jlongArray out,
                                  jlongArray refusal, jobjectArray reason) {
  (void)cls;
  jint st = longs_check(env, out, URL_LEN);
  if (st != MRTR_OK || (st = longs_check(env, refusal, 2)) != MRTR_OK) {
    return st;
  }
  jbytes u;
  PIN_REQUIRED(env, url, &u);
  mrtr_url_info info;
  mrtr_url_refusal r;
  memset(&info, 0, sizeof info);
  memset(&r, 0, sizeof r);
  st = (jint)mrtr_url_consent(str_of(&u), &info, &r);
  jlong v[URL_LEN];
  memset(v, 0, sizeof v);
  if (st == MRTR_OK) {
    const mrtr_url_info *src = &info;
    const jbytes *in = &u;
    MRTR_JNI_URL_SCALARS(SCALAR_OUT)
    if (0 MRTR_JNI_URL_VIEWS(VIEW_IN)) {
      st = MRTR_ERR_INTERNAL;
    }
  }
  bytes_close(env, &u, 0);
  if (st == MRTR_OK) {
    longs_put(env, out, v, URL_LEN);
  } else if (st == MRTR_ERR_REFUSED_URL) {
    jlong rv[2] = {(jlong)r.offset, (jlong)r.has_offset};
    longs_put(env, refusal, rv, 2);
    str_out(env, reason, r.reason);
  }
  return st;
}

/* ------------------------------------------------------------ seal */

/* String unsealReasonStr(int reason) */
JNIEXPORT jstring JNI_FN(unsealReasonStr)(JNIEnv *env, jclass cls, jint reason) {
  (void)cls;
  return cstr(env, mrtr_unseal_reason_str((int32_t)reason));
}

/* String invalidRequestStateMessage() */
JNIEXPORT jstring JNI_FN(invalidRequestStateMessage)(JNIEnv *env, jclass cls) {
  (void)cls;
  return cstr(env, mrtr_invalid_request_state_message());
}

/* long sealerSize() */
JNIEXPORT jlong JNI_FN(sealerSize)(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  return (jlong)mrtr_sealer_size();
}

/* long sealTokenLen(long stateLen, boolean principal): -1 for a negative length. */
JNIEXPORT jlong JNI_FN(sealTokenLen)(JNIEnv *env, jclass cls, jlong state_len,
                                     jboolean principal) {
  (void)env;
  (void)cls;
  size_t n;
  if (to_size(state_len, &n) != 0) {
    return -1;
  }
  size_t r = mrtr_seal_token_len(n, principal != JNI_FALSE);
  return r > (size_t)INT64_MAX ? -1 : (jlong)r;
}

/* long unsealScratchLen(long tokenLen): -1 for a negative length. */
JNIEXPORT jlong JNI_FN(unsealScratchLen)(JNIEnv *env, jclass cls, jlong token_len) {
  (void)env;
  (void)cls;
  size_t n;
  if (to_size(token_len, &n) != 0) {
    return -1;
  }
  size_t r = mrtr_unseal_scratch_len(n);
  return r > (size_t)INT64_MAX ? -1 : (jlong)r;
}

/* int sealerInit(ByteBuffer ws, byte[][] keys, byte[] audience, long ttlSeconds,
 *                long skewSeconds, long maxToken, String[] reason or null)
 * More than MRTR_SEAL_MAX_KEYS keys is MRTR_ERR_KEY_ERROR ("TooManyKeys"), as
 * the C function says; reason[0]: the cause mrtr_sealer_init names for a
 * refusal (out_reason). */
JNIEXPORT jint JNI_FN(sealerInit)(JNIEnv *env, jclass cls, jobject ws, jobjectArray keys,
                                  jbyteArray audience, jlong ttl, jlong skew, jlong max_token,
                                  jobjectArray reason) {
  (void)cls;
  size_t cap = 0;
  uint8_t *base = ws_base(env, ws, &cap);
  if (base == NULL || keys == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  size_t mt;
  if (ttl < 0 || skew < 0 || to_size(max_token, &mt) != 0) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  jsize n = (*env)->GetArrayLength(env, keys);
  if (n > MRTR_SEAL_MAX_KEYS) {
    str_out(env, reason, "TooManyKeys");
    return MRTR_ERR_KEY_ERROR;
  }
  if ((*env)->EnsureLocalCapacity(env, n + 4) != 0) {
    return MRTR_ERR_INTERNAL;
  }
  jbytes a;
  PIN_REQUIRED(env, audience, &a);
  jbytes k[MRTR_SEAL_MAX_KEYS];
  mrtr_bytes kb[MRTR_SEAL_MAX_KEYS];
  jsize opened = 0;
  jint st = MRTR_OK;
  for (; opened < n; opened++) {
    jbyteArray ka = (jbyteArray)(*env)->GetObjectArrayElement(env, keys, opened);
    if (ka == NULL) {
      st = MRTR_ERR_NULL_POINTER;
    } else if (bytes_open(env, ka, &k[opened]) != 0) {
      st = MRTR_ERR_INTERNAL;
    }
    if (st != MRTR_OK) {
      break;
    }
    kb[opened] = mbytes_of(&k[opened]);
  }
  if (st == MRTR_OK) {
    mrtr_sealer *out = NULL;
    const char *why = NULL;
    /* opt_str_of: an empty audience reaches the C function as empty, not
     * absent, so it is refused for what it is ("EmptyAudience"). */
    st = (jint)mrtr_sealer_init(base, cap, kb, (size_t)n, opt_str_of(&a), (uint64_t)ttl,
                                (uint64_t)skew, mt, &out, &why);
    if (st == MRTR_OK && (void *)out != (void *)base) {
      st = MRTR_ERR_INTERNAL;
    } else if (st != MRTR_OK) {
      str_out(env, reason, why);
    }
  }
  while (opened > 0) {
    opened--;
    bytes_close_secret(env, &k[opened]);
  }
  bytes_close(env, &a, 0);
  return st;
}

/* int sealerWipe(ByteBuffer ws) */
JNIEXPORT jint JNI_FN(sealerWipe)(JNIEnv *env, jclass cls, jobject ws) {
  (void)cls;
  mrtr_sealer *s = (mrtr_sealer *)ws_object(env, ws);
  if (s == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  mrtr_sealer_wipe(s);
  return MRTR_OK;
}

/* int bindingDigest(byte[] method, byte[] target, byte[] arguments or null, byte[] out)
 * out: at least 32 bytes. */
JNIEXPORT jint JNI_FN(bindingDigest)(JNIEnv *env, jclass cls, jbyteArray method,
                                     jbyteArray target, jbyteArray arguments, jbyteArray out) {
  (void)cls;
  if (method == NULL || target == NULL || out == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  if ((*env)->GetArrayLength(env, out) < 32) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  jbytes m, t, a;
  if (bytes_open(env, method, &m) != 0) {
    return MRTR_ERR_INTERNAL;
  }
  if (bytes_open(env, target, &t) != 0) {
    bytes_close(env, &m, 0);
    return MRTR_ERR_INTERNAL;
  }
  if (bytes_open(env, arguments, &a) != 0) {
    bytes_close(env, &t, 0);
    bytes_close(env, &m, 0);
    return MRTR_ERR_INTERNAL;
  }
  uint8_t digest[32];
  /* arguments null: the request has none (NULL); an empty array is an
   * empty (invalid) JSON text, which the C function reports. */
  const uint8_t *ap = arguments == NULL ? NULL : (a.ptr == NULL ? (const uint8_t *)EMPTY : (const uint8_t *)a.ptr);
  jint st = (jint)mrtr_binding_digest(str_of(&m), str_of(&t), ap, (size_t)a.len, digest, NULL);
  bytes_close(env, &a, 0);
  bytes_close(env, &t, 0);
  bytes_close(env, &m, 0);
  if (st == MRTR_OK) {
    (*env)->SetByteArrayRegion(env, out, 0, 32, (const jbyte *)digest);
  }
  return st;
}

/* int seal(ByteBuffer ws, long now, byte[] nonce (24), byte[] binding (32),
 *          byte[] principal or null, byte[] state, byte[] out or null, long[] written) */
JNIEXPORT jint JNI_FN(seal)(JNIEnv *env, jclass cls, jobject ws, jlong now, jbyteArray nonce,
                            jbyteArray binding, jbyteArray principal, jbyteArray state,
                            jbyteArray out, jlongArray written) {
  (void)cls;
  if (nonce == NULL || binding == NULL || state == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  if (now < 0 || (*env)->GetArrayLength(env, nonce) != MRTR_SEAL_NONCE_BYTES ||
      (*env)->GetArrayLength(env, binding) != 32) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  jbyte nb[MRTR_SEAL_NONCE_BYTES], bb[32];
  (*env)->GetByteArrayRegion(env, nonce, 0, MRTR_SEAL_NONCE_BYTES, nb);
  (*env)->GetByteArrayRegion(env, binding, 0, 32, bb);
  jbytes p, s;
  if (bytes_open(env, principal, &p) != 0) {
    return MRTR_ERR_INTERNAL;
  }
  if (bytes_open(env, state, &s) != 0) {
    bytes_close(env, &p, 0);
    return MRTR_ERR_INTERNAL;
  }
  mrtr_bytes pb = mbytes_of(&p);
  if (principal != NULL && pb.ptr == NULL) {
    pb.ptr = (const uint8_t *)EMPTY;
  }
  jint st_outer;
  {
    OUT_BEGIN(env, out, written);
    st_outer = (jint)mrtr_seal((const mrtr_sealer *)ws_object(env, ws), (uint64_t)now,
                               (const uint8_t *)nb, (const uint8_t *)bb,
                               principal == NULL ? NULL : &pb, mbytes_of(&s), OUT_PTR, OUT_LEN,
                               OUT_WRITTEN);
    OUT_END(env, written, st_outer);
  }
  bytes_close(env, &s, 0);
  bytes_close(env, &p, 0);
  return st_outer;
}

/* int unseal(ByteBuffer ws, long now, byte[] token, byte[] binding (32),
 *            byte[] principal or null, byte[] scratch, long[] out)
 * MRTR_OK: out[0..2) the state's offset and length in scratch.
 * MRTR_ERR_INVALID_REQUEST_STATE: out[2] the mrtr_unseal_reason. */
JNIEXPORT jint JNI_FN(unseal)(JNIEnv *env, jclass cls, jobject ws, jlong now, jbyteArray token,
                              jbyteArray binding, jbyteArray principal, jbyteArray scratch,
                              jlongArray out) {
  (void)cls;
  jint st = longs_check(env, out, 3);
  if (st != MRTR_OK) {
    return st;
  }
  if (token == NULL || binding == NULL || scratch == NULL) {
    return MRTR_ERR_NULL_POINTER;
  }
  if (now < 0 || (*env)->GetArrayLength(env, binding) != 32) {
    return MRTR_ERR_INVALID_ARGUMENT;
  }
  jbyte bb[32];
  (*env)->GetByteArrayRegion(env, binding, 0, 32, bb);
  jbytes t, p, sc;
  if (bytes_open(env, token, &t) != 0) {
    return MRTR_ERR_INTERNAL;
  }
  if (bytes_open(env, principal, &p) != 0) {
    bytes_close(env, &t, 0);
    return MRTR_ERR_INTERNAL;
  }
  if (bytes_open(env, scratch, &sc) != 0) {
    bytes_close(env, &p, 0);
    bytes_close(env, &t, 0);
    return MRTR_ERR_INTERNAL;
  }
  mrtr_bytes pb = mbytes_of(&p);
  if (principal != NULL && pb.ptr == NULL) {
    pb.ptr = (const uint8_t *)EMPTY;
  }
  mrtr_bytes state = {NULL, 0};
  mrtr_unseal_reason reason = MRTR_UNSEAL_MALFORMED;
  st = (jint)mrtr_unseal((const mrtr_sealer *)ws_object(env, ws), (uint64_t)now, mbytes_of(&t),
                         (const uint8_t *)bb, principal == NULL ? NULL : &pb, (uint8_t *)sc.ptr,
                         (size_t)sc.len, &state, &reason, NULL);
  jlong v[3] = {0, 0, 0};
  if (st == MRTR_OK && view_in(&sc, state.ptr, state.len, &v[0], &v[1]) != 0) {
    st = MRTR_ERR_INTERNAL;
  }
  /* The decrypted state must reach the Java array: commit on success. */
  bytes_close(env, &sc, st == MRTR_OK);
  bytes_close(env, &p, 0);
  bytes_close(env, &t, 0);
  if (st == MRTR_OK) {
    longs_put(env, out, v, 3);
  } else if (st == MRTR_ERR_INVALID_REQUEST_STATE) {
    v[2] = (jlong)reason;
    longs_put(env, out, v, 3);
  }
  return st;
}
