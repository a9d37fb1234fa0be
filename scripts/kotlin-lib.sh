# shellcheck shell=bash
# Helpers of the Kotlin/JVM scripts (scripts/build-kotlin-jvm,
# scripts/test-kotlin), sourced after ROOT and OUT are set.

# kotlin_toolchain: sets and exports KOTLIN_HOME (the pinned compiler from
# npm, scripts/install-kotlin), JAVA_HOME (kept when set, else the JDK of
# the `javac` on PATH), JAVA, KLIB (the compiler's lib/) and RUNTIME_CP
# (kotlin-stdlib and kotlinx-coroutines-core-jvm, what a program on
# mrtr-kotlin.jar needs at run time).
kotlin_toolchain() {
  KOTLIN_HOME="$("$ROOT/scripts/install-kotlin")"
  if [[ -z "${JAVA_HOME:-}" ]]; then
    command -v javac >/dev/null 2>&1 || {
      echo "javac not found: install a JDK (17; Debian: apt-get install openjdk-17-jdk-headless)" >&2
      return 1
    }
    JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
  fi
  [[ -f "$JAVA_HOME/include/jni.h" ]] || {
    echo "no jni.h under JAVA_HOME=$JAVA_HOME (a JRE, not a JDK?)" >&2
    return 1
  }
  JAVA="$JAVA_HOME/bin/java"
  KLIB="$KOTLIN_HOME/lib"
  RUNTIME_CP="$KLIB/kotlin-stdlib.jar:$KLIB/kotlinx-coroutines-core-jvm.jar"
  export KOTLIN_HOME JAVA_HOME JAVA KLIB RUNTIME_CP
}

# compile_if_changed STAMP_NAME OUTPUT SOURCES... -- KOTLINC_ARGS...: runs
# kotlinc (into OUTPUT, a jar or a directory) only when the sources, the
# arguments or the files named in $DEPS changed since the last build.
compile_if_changed() {
  local name="$1" output="$2" srcs=() args=()
  shift 2
  while [[ "$1" != "--" ]]; do srcs+=("$1"); shift; done
  shift
  args=("$@")
  local want have=""
  # shellcheck disable=SC2086 # DEPS: a space-separated list of files
  want="$( { cat "${srcs[@]}" ${DEPS:+$DEPS}; printf '%s\n' "${args[@]}" "$(cat "$KOTLIN_HOME/build.txt")"; } | sha256sum | cut -d' ' -f1)"
  [[ -f "$OUT/$name.stamp" ]] && have="$(cat "$OUT/$name.stamp")"
  if [[ "$have" == "$want" && -e "$output" ]]; then
    echo "$name: up to date"
    return 0
  fi
  rm -rf "$output"
  "$KOTLIN_HOME/bin/kotlinc-jvm" -nowarn -jvm-target 17 "${args[@]}" -d "$output" "${srcs[@]}"
  printf '%s\n' "$want" >"$OUT/$name.stamp"
  echo "$name: compiled"
}
