# Dockerfile - the sudokud image: a builder stage compiles build/sudokud with
# the -dev packages, and the runtime stage holds Debian's two runtime
# libraries, the stripped binary and a fixed non-root user, nothing else.
# No "# syntax=" line and no digest pin: our build machines reach no
# registry, and docker/test-image.sh makes debian:bookworm-slim locally.
#   docker build -t sudokud .
#   docker run --rm -p 8080:8080 --read-only sudokud

FROM debian:bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      gcc libc6-dev make pkg-config libmicrohttpd-dev libcjson-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Only the build inputs, so that a change to tests or docs keeps the cache.
COPY Makefile openapi.yaml ./
COPY include/ include/
COPY src/ src/
RUN make build/sudokud CFLAGS=-O2 \
 && strip build/sudokud \
 && ./build/sudokud --version
# Lets docker/test-image.sh find and remove old, untagged builder images.
LABEL org.sudokud.stage=build

FROM debian:bookworm-slim
# ca-certificates is not needed: the only client in the image is --probe,
# which speaks plain HTTP to 127.0.0.1.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libcjson1 \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/cache/debconf/*-old \
           /var/log/apt /var/log/dpkg.log \
 && groupadd --system --gid 10001 sudokud \
 && useradd --system --uid 10001 --gid 10001 --no-create-home \
      --home-dir /nonexistent --shell /usr/sbin/nologin sudokud
COPY --from=build /src/build/sudokud /usr/local/bin/sudokud

# Numeric, so that Kubernetes' runAsNonRoot can check it without /etc/passwd.
USER 10001:10001
EXPOSE 8080
# sudokud drains on SIGTERM: readyz turns 503, requests in flight finish,
# exit 0 (DRAIN_TIMEOUT, default 25 s, bounds it; docker stop -t must exceed it).
STOPSIGNAL SIGTERM
# The binary probes itself: no curl in the image. Shell form so that a PORT
# set at run time is honoured (/bin/sh is part of the base image).
HEALTHCHECK --interval=10s --timeout=2s --start-period=5s --retries=3 \
  CMD sudokud --probe "http://127.0.0.1:${PORT:-8080}/livez" || exit 1
# Every setting is read from the environment (PORT, THREADS, MAX_BODY, ...)
# or given as arguments: docker run sudokud --threads 4.
ENTRYPOINT ["/usr/local/bin/sudokud"]
