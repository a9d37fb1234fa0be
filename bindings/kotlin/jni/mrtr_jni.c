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
 *     wsFree. Functions on an object take the buffer and the handle the
 *     _init function returned; the handle must lie inside the buffer, or the
 *     C function gets NULL (MRTR_ERR_NULL_POINTER).
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

/* A Java byte[] pinned (or copied) for the duration of one C call. */
typedef struct {
  jbyteArray arr;
  jbyte *ptr;
  jsize len;
} jbytes;

/* Pins `arr` (NULL allowed: ptr NULL, len 0). Returns 0, or -1 when the JVM
 * could not (an exception is pending). */
static int bytes_open(JNIEnv *env, jbyteArray arr, jbytes *b) {
  b->arr = arr;
  b->ptr = NULL;
  b->len = 0;
  if (arr == NULL) {
    return 0;
  }
  b->len = (*env)->GetArrayLength(env, arr);
  if (b->len == 0) {
    return 0;
  }
  b->ptr = (*env)->GetByteArrayElements(env, arr, NULL);
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

/* The workspace memory of a buffer from wsAlloc, or NULL. */
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

/* The object handle `h` if it points inside workspace `ws`, else NULL. */
static __attribute__((unused)) void *ws_handle(JNIEnv *env, jobject ws, jlong h) {
  size_t cap = 0;
  uint8_t *base = ws_base(env, ws, &cap);
  uintptr_t a = (uintptr_t)h;
  if (base == NULL || a < (uintptr_t)base || a - (uintptr_t)base >= cap) {
    return NULL;
  }
  return (void *)a;
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
  /* Wipe: workspaces hold requestState tokens and answers. volatile so the
   * compiler cannot drop the stores before free. */
  volatile uint8_t *v = base;
  for (size_t i = 0; i < cap; i++) {
    v[i] = 0;
  }
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
