# syntax=docker/dockerfile:1
# live-draw container image: a Swift build stage and a slim Debian 12 runtime.
#
#   docker build -t live-draw .
#   docker run --rm -p 8080:8080 live-draw
#
# The apt packages of both stages must match scripts/apt-packages.txt ([build] and
# [image-runtime]); `make lint` runs scripts/check-apt-consistency.sh to keep them in step.

# Same major.minor as the toolchain CI builds with, on the same Debian release as the runtime, so
# the binary links against the same libwebsockets and libcurl it will find at run time.
ARG SWIFT_IMAGE=swift:6.3-bookworm

FROM ${SWIFT_IMAGE} AS build
# Versions are not pinned: Debian drops superseded point releases (security fixes) from its
# mirrors, so a pinned version stops installing within weeks. The bookworm base fixes the ABI.
# hadolint ignore=DL3008
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libwebsockets-dev \
      libcurl4-openssl-dev \
      libsqlite3-dev \
      libhiredis-dev \
      libqrencode-dev \
      pkg-config \
      ca-certificates \
      libev-dev \
      libwebsockets-evlib-ev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Manifest first: resolving dependencies is the slow, rarely changing step, so a source-only
# change reuses this layer.
COPY Package.swift ./
RUN swift package resolve
COPY . .
# The Swift runtime and Foundation are linked statically, so the runtime stage needs no Swift
# toolchain, only the C libraries listed there (checked with readelf: libwebsockets, libcurl,
# libsqlite3, libhiredis, libqrencode, libstdc++, libgcc_s, libc; libev and lws' libev plugin
# are loaded at run time, for the default --event-loop libev). `install -s` strips symbols: about 90 MB down to 63 MB.
RUN swift build -c release --static-swift-stdlib --product live-draw \
 && install -s -D "$(swift build -c release --show-bin-path)/live-draw" /staging/live-draw

FROM debian:bookworm-slim AS runtime
# Same reason as above for unpinned versions.
# hadolint ignore=DL3008
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libwebsockets17 \
      libwebsockets-evlib-ev \
      libcurl4 \
      libsqlite3-0 \
      libhiredis0.14 \
      libqrencode4 \
      libstdc++6 \
      ca-certificates \
      curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 livedraw \
 && useradd --system --uid 10001 --gid 10001 --home-dir /app --shell /usr/sbin/nologin livedraw \
 && mkdir -p /app/data \
 && chown 10001:10001 /app/data
WORKDIR /app
COPY --from=build /staging/live-draw /usr/local/bin/live-draw
COPY public ./public
COPY defaults ./defaults
# Draw records (draws.sqlite) live in a volume, so they outlive the container; it is the only
# place the server writes. Everything else stays root-owned.
ENV LIVE_DRAW_DATA_DIR=/app/data
# Two malloc arenas instead of glibc's 8 per core: the server's few threads each touch 5,000-name
# lists now and then, and each arena kept its high-water mark. The 30-minute cluster soak's steady
# node grew 5.7 % from minute 5 to 30 with the default, 3.5 % with this (docs/SCALING.md).
ENV MALLOC_ARENA_MAX=2
VOLUME ["/app/data"]
# The server never writes outside /app/data: files stay root-owned, the process does not.
# Numeric, so that Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
USER 10001:10001
EXPOSE 8080
# Plain http on the configured port (sh expands LIVE_DRAW_PORT at check time); with
# --tls-cert/--tls-key, override this with `curl -fsSk https://...`.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD ["sh", "-c", "curl -fsS -o /dev/null http://127.0.0.1:${LIVE_DRAW_PORT:-8080}/healthz"]
ENTRYPOINT ["live-draw"]
# Inside a container loopback is unreachable from the host, so the image binds every interface;
# the host decides what to publish with -p.
CMD ["--host", "0.0.0.0"]
