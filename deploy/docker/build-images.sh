#!/usr/bin/env bash
# Builds the image of every pmedia service with whichever OCI builder is installed (podman, buildah or docker).
#   deploy/docker/build-images.sh REGISTRY/pmedia VERSION      e.g. registry.example.com/pmedia 1.0.0
# Package the services first: ./mvnw -B package -DskipTests
# Kaniko (in CI, no daemon): the same arguments, see docs/operations.md "Build the images".
set -euo pipefail

prefix=${1:?usage: build-images.sh REGISTRY/PREFIX VERSION}
version=${2:?usage: build-images.sh REGISTRY/PREFIX VERSION}
root=$(cd "$(dirname "$0")/../.." && pwd)

# each service and its runtime stage, one per line (the table ./pmedia images reads too)
mapfile -t images < <(grep -v -e '^#' -e '^[[:space:]]*$' "$root/deploy/docker/images.txt")

if command -v podman >/dev/null; then build=(podman build)
elif command -v buildah >/dev/null; then build=(buildah bud)
elif command -v docker >/dev/null; then build=(docker build)
else echo "no OCI builder found (podman, buildah or docker)" >&2; exit 1
fi

for entry in "${images[@]}"; do
  read -r service runtime <<<"$entry"
  if [[ ! -f "$root/$service/target/quarkus-app/quarkus-run.jar" ]]; then
    echo "$service is not packaged: run ./mvnw -B package -DskipTests first" >&2
    exit 1
  fi
  "${build[@]}" -f "$root/deploy/docker/Dockerfile" --build-arg "SERVICE=$service" --build-arg "RUNTIME=$runtime" \
    -t "$prefix/$service:$version" "$root"
done
