# Dockerfile - the sudokud image. Three stages from debian:bookworm-slim:
# "build" compiles build/sudokud (with Debian's hardening flags: Makefile);
# "rootfs" unpacks into /rootfs exactly the Debian packages that
# docker/runtime.lock pins (the two runtime libraries and their dependency
# closure, checked against the lock's SHA-256 sums), adds /etc/passwd and
# /etc/group, and writes the image's SBOM (docker/sbom.sh); the runtime stage
# is FROM scratch with that tree and the binary only: no shell, no package
# manager, no setuid file. docker/test-image.sh passes the build arguments
# (VERSION from include/version.h, REVISION from git) and checks all this.
#   docker build --build-arg VERSION=0.1.0 -t sudokud:0.1.0 .
#   docker run --rm -p 8080:8080 --read-only sudokud:0.1.0
# No "# syntax=" line and no registry digest: our build machines reach no
# registry, and docker/test-image.sh makes debian:bookworm-slim locally. What
# is pinned is what ends up in the image: the package versions and hashes
# of docker/runtime.lock (README, "The image": why, and how to update it).

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
COPY tools/ tools/
ARG VERSION=unset
RUN make build/sudokud CFLAGS=-O2 \
 && strip build/sudokud \
 && test "$(./build/sudokud --version)" = "sudokud $VERSION" \
 || { echo "VERSION=$VERSION is not the binary's ($(./build/sudokud --version)): pass the one of include/version.h" >&2; exit 1; }
# Lets docker/test-image.sh find and remove old, untagged builder images.
LABEL org.sudokud.stage=build

FROM debian:bookworm-slim AS rootfs
COPY docker/runtime.lock docker/sbom.sh /lock/
WORKDIR /debs
# The lock names every package of the closure with its version and hash. A
# closure that changed (a new dependency) or a version no longer in the
# archive (Debian published an update) fails here: run `make image-lock`.
RUN apt-get update \
 && want=$(awk '!/^#/ && NF { print $1 }' /lock/runtime.lock | sort) \
 && have=$(apt-cache depends --recurse --no-recommends --no-suggests \
             --no-conflicts --no-breaks --no-replaces --no-enhances \
             libmicrohttpd12 libcjson1 | grep '^[a-z0-9]' | sort -u) \
 && { [ "$want" = "$have" ] || { echo "runtime.lock is not the closure of libmicrohttpd12 libcjson1 ($have): run make image-lock" >&2; exit 1; }; } \
 && apt-get download $(awk '!/^#/ && NF { print $1 "=" $2 }' /lock/runtime.lock) \
 && awk '!/^#/ && NF { print substr($4, 8) "  " $3 }' /lock/runtime.lock | sha256sum -c --quiet \
 && mkdir -p /rootfs/etc /rootfs/tmp /rootfs/var/lib/dpkg/status.d /rootfs/usr/share/sbom \
 && for f in *.deb; do \
      dpkg-deb -x "$f" /rootfs \
      && dpkg-deb -f "$f" > "/rootfs/var/lib/dpkg/status.d/$(dpkg-deb -f "$f" Package)"; \
    done \
 && find /rootfs/usr/share/doc -mindepth 1 -not -name copyright -not -type d -delete \
 && rm -rf /rootfs/usr/share/lintian /rootfs/usr/share/man /rootfs/usr/share/info /rootfs/usr/share/locale \
 && chmod 1777 /rootfs/tmp \
 && printf '%s\n' 'root:x:0:0:root:/root:/usr/sbin/nologin' \
      'sudokud:x:10001:10001:sudokud:/nonexistent:/usr/sbin/nologin' \
      'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin' > /rootfs/etc/passwd \
 && printf '%s\n' 'root:x:0:' 'sudokud:x:10001:' 'nogroup:x:65534:' > /rootfs/etc/group \
 && rm -rf /var/lib/apt/lists/*
ARG VERSION=unset
ARG REVISION=unknown
COPY --from=build /src/build/sudokud /rootfs/usr/local/bin/sudokud
RUN sh /lock/sbom.sh /debs /rootfs "$VERSION" "$REVISION" > /rootfs/usr/share/sbom/sudokud.spdx.json

FROM scratch
COPY --from=rootfs /rootfs/ /
ARG VERSION=unset
ARG REVISION=unknown
ARG SOURCE=unknown
ARG CREATED=unknown
ARG BASE_DIGEST=unknown
LABEL org.opencontainers.image.title="sudokud" \
      org.opencontainers.image.description="Sudoku-solving HTTP JSON service" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$REVISION" \
      org.opencontainers.image.source="$SOURCE" \
      org.opencontainers.image.created="$CREATED" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.base.name="debian:bookworm-slim" \
      org.opencontainers.image.base.digest="$BASE_DIGEST"
# Numeric, so that Kubernetes' runAsNonRoot can check it without /etc/passwd.
USER 10001:10001
EXPOSE 8080
# sudokud drains on SIGTERM: readyz turns 503, requests in flight finish,
# idle connections close at once, exit 0 (DRAIN_TIMEOUT, default 25 s,
# bounds it; docker stop -t must exceed it).
STOPSIGNAL SIGTERM
# The binary probes itself, exec form: no shell and no curl in the image. A
# bare --probe reads the daemon's command line (PID 1) and environment, so
# `docker run sudokud --port 9000` and -e PORT=9000 are both followed.
HEALTHCHECK --interval=10s --timeout=2s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/sudokud", "--probe"]
# Every setting is read from the environment (PORT, THREADS, MAX_BODY, ...)
# or given as arguments: docker run sudokud --threads 4.
ENTRYPOINT ["/usr/local/bin/sudokud"]
