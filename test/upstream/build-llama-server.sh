#!/usr/bin/env bash
# Builds llama.cpp's `llama-server` from the source the npm package node-llama-cpp ships
# (llama/gitRelease.bundle), into a cache outside the repository keyed by that package's
# version. Provider e2e tests use it as a real OpenAI-compatible upstream; they skip with a
# message when it is absent. Run by .ci/run before `npm test`; by hand:
#   bash test/upstream/build-llama-server.sh        # prints the binary's path
# Build time on 2 cores: ~20 min the first time, nothing once cached.
set -euo pipefail

version=3.21.1
cache="${LLAMA_SERVER_CACHE:-$HOME/.cache/local-responses}/llama-server-node-llama-cpp-$version"
bin="$cache/build/bin/llama-server"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi

command -v cmake >/dev/null && command -v g++ >/dev/null || {
  echo "build-llama-server: cmake and g++ are needed to build llama-server" >&2; exit 1; }

mkdir -p "$cache"
cd "$cache"
if [ ! -d llama-src ]; then
  rm -rf package ./*.tgz
  npm pack --silent "node-llama-cpp@$version" >/dev/null
  tar -xzf "node-llama-cpp-$version.tgz" package/llama/gitRelease.bundle
  git -c advice.detachedHead=false clone -q package/llama/gitRelease.bundle llama-src
  rm -rf package "node-llama-cpp-$version.tgz"
fi
# LLAMA_USE_PREBUILT_UI=OFF: otherwise CMake tries to download the web UI and waits 300 s.
cmake -S llama-src -B build -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF -DBUILD_SHARED_LIBS=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
  -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF >build.log 2>&1 || { tail -30 build.log >&2; exit 1; }
nice -n 10 cmake --build build --target llama-server -j"$(nproc)" >>build.log 2>&1 || { tail -30 build.log >&2; exit 1; }
echo "$bin"
