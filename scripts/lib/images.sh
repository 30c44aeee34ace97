# shellcheck shell=bash
# ./pmedia images: the container image of every service, built with buildah (a Debian package, no daemon) from the
# base image the values file names, with an SBOM per image and the images' digests recorded for the overlays
# (docs/operations.md, "Build the images"). Not part of ./pmedia test: it takes minutes (timed there).
#
#   values file   PMEDIA_IMAGES_VALUES (default deploy/k8s/overlays/prod/values.env): REGISTRY, TAG, BASE_IMAGE
#   base image    BASE_IMAGE; a localhost/ name that is not in the local store is built here from Debian's packages
#                 (debootstrap minbase + openjdk-17-jre-headless), as no container registry is reachable from the
#                 build machines; any other name must be pullable
#   isolation     chroot (no container runtime here: crun refuses this sandbox's cgroups)
#   storage       PMEDIA_IMAGES_STORAGE (default overlay; vfs where overlay cannot mount)
#   out           .pmedia/images/sbom/<service>.cdx.json, .pmedia/images/digests.env (the local store's digests)
#   push          ./pmedia images push: every image to REGISTRY, then deploy/k8s/components/image-digests from the
#                 digests the registry returned (buildah push --digestfile), all images or the file is left alone

IMAGES_OUT="$STATE/images"
IMAGES_VALUES="${PMEDIA_IMAGES_VALUES:-$ROOT/deploy/k8s/overlays/prod/values.env}"
IMAGES_DIGESTS_COMPONENT="$ROOT/deploy/k8s/components/image-digests/kustomization.yaml"
DEBIAN_MIRROR="${PMEDIA_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# Each service and its runtime stage of deploy/docker/Dockerfile (the table deploy/docker/build-images.sh reads too).
mapfile -t IMAGE_SERVICES < <(grep -v -e '^#' -e '^[[:space:]]*$' "$ROOT/deploy/docker/images.txt")

# A value of the values file (the last line that sets it).
images_value() { sed -n "s/^$1=//p" "$IMAGES_VALUES" | tail -n 1; }

images_buildah() { buildah --storage-driver "${PMEDIA_IMAGES_STORAGE:-overlay}" "$@"; }

ensure_image_tools() {
  local missing=()
  command -v buildah >/dev/null || missing+=(buildah)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  if [ "${#missing[@]}" -gt 0 ]; then
    info "installing ${missing[*]} (apt-get)"
    apt-get install -y "${missing[@]}" >"$LOGS/images-apt.log" 2>&1 || die "apt-get install ${missing[*]} failed ($LOGS/images-apt.log)"
  fi
  if [ -z "${PMEDIA_IMAGES_STORAGE:-}" ] && ! buildah --storage-driver overlay images >/dev/null 2>&1; then
    warn "buildah cannot use the overlay storage driver here: vfs (slower, full copies per layer)"
    PMEDIA_IMAGES_STORAGE=vfs
  fi
}

# BASE_IMAGE: a Debian bookworm root (minbase) with OpenJDK 17's headless JRE from Debian's packages.
images_base() {
  local base="$1" rootfs ctr
  if images_buildah inspect --type image "$base" >/dev/null 2>&1; then
    info "base image $base: in the local store"
    return
  fi
  case "$base" in
    localhost/*) ;;
    *) images_buildah pull "$base" || die "cannot pull the base image $base (no registry reachable?): name a localhost/ image in $IMAGES_VALUES and ./pmedia images builds it from Debian's packages" ;;
  esac
  [ "${base#localhost/}" != "$base" ] || return 0
  info "base image $base: building it from Debian's packages (debootstrap, $DEBIAN_MIRROR)"
  rootfs="$IMAGES_OUT/rootfs"
  rm -rf "$rootfs"
  debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >"$LOGS/images-debootstrap.log" 2>&1 ||
    die "debootstrap failed ($LOGS/images-debootstrap.log)"
  ctr="$(images_buildah from scratch)"
  images_buildah copy "$ctr" "$rootfs" / >/dev/null
  rm -rf "$rootfs"
  images_buildah run --isolation chroot "$ctr" -- sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless && apt-get clean && rm -rf /var/lib/apt/lists/* && java -version' \
    >"$LOGS/images-base.log" 2>&1 || die "installing the JRE into the base failed ($LOGS/images-base.log)"
  images_buildah config --env LANG=C.UTF-8 --label "io.pmedia.base=debian-bookworm-minbase+openjdk-17-jre-headless" "$ctr"
  images_buildah commit --rm "$ctr" "$base" >/dev/null
}

# The CycloneDX SBOM of a service's Maven build (its runtime dependencies), as JSON.
images_sbom() {
  local service="$1" version
  version="$(pom_property cyclonedx-maven-plugin.version)"
  "$ROOT/mvnw" -B -q ${PMEDIA_IMAGES_MAVEN_OFFLINE:+-o} -pl "$service" \
    "org.cyclonedx:cyclonedx-maven-plugin:$version:makeBom" -DoutputFormat=json -DoutputName=sbom \
    -DincludeTestScope=false >"$LOGS/images-sbom-$service.log" 2>&1 ||
    die "the SBOM of $service failed ($LOGS/images-sbom-$service.log)"
  mkdir -p "$IMAGES_OUT/sbom"
  cp "$ROOT/$service/target/sbom.json" "$IMAGES_OUT/sbom/$service.cdx.json"
}

cmd_images() {
  if [ "${1:-}" = push ]; then
    shift
    cmd_images_push "$@"
    return
  fi
  local registry tag base only=("$@") entry service runtime ref ctr user entrypoint digest start
  ensure_dirs
  [ "$(id -u)" = 0 ] || die "./pmedia images runs buildah as root here (rootless buildah needs subuids)"
  [ -f "$IMAGES_VALUES" ] || die "no values file $IMAGES_VALUES"
  registry="$(images_value REGISTRY)" tag="$(images_value TAG)" base="$(images_value BASE_IMAGE)"
  if [ -z "$registry" ] || [ -z "$tag" ] || [ -z "$base" ]; then
    die "$IMAGES_VALUES must set REGISTRY, TAG and BASE_IMAGE"
  fi
  ensure_image_tools
  mkdir -p "$IMAGES_OUT"
  start=$SECONDS
  images_base "$base"
  # Keep the digests of the images not rebuilt this time.
  : >"$IMAGES_OUT/digests.env.new"
  [ ! -f "$IMAGES_OUT/digests.env" ] || cp "$IMAGES_OUT/digests.env" "$IMAGES_OUT/digests.env.new"
  for entry in "${IMAGE_SERVICES[@]}"; do
    read -r service runtime <<<"$entry"
    if [ "${#only[@]}" -gt 0 ] && [[ " ${only[*]} " != *" $service "* && " ${only[*]} " != *" ${service%-service} "* ]]; then
      continue
    fi
    [ -f "$ROOT/$service/target/quarkus-app/quarkus-run.jar" ] ||
      die "$service is not packaged: ./mvnw -B package -DskipTests -pl $service first"
    ref="$registry/$service:$tag"
    info "$ref (from $base, $runtime)"
    images_buildah bud --isolation chroot --pull=false --layers -f "$ROOT/deploy/docker/Dockerfile" \
      --build-arg "JRE_IMAGE=$base" --build-arg "SERVICE=$service" --build-arg "RUNTIME=$runtime" \
      -t "$ref" "$ROOT" >"$LOGS/images-$service.log" 2>&1 || die "building $ref failed ($LOGS/images-$service.log)"
    # What the image is: a non-root user, an entrypoint that starts the service, a JRE that runs as that user.
    user="$(images_buildah inspect --type image --format '{{.OCIv1.Config.User}}' "$ref")"
    entrypoint="$(images_buildah inspect --type image --format '{{.OCIv1.Config.Entrypoint}}' "$ref")"
    [ "$user" = "185:185" ] || die "$ref runs as '$user', not 185:185"
    [ "$entrypoint" = "[java -jar /deployments/quarkus-run.jar]" ] || die "$ref's entrypoint is $entrypoint"
    ctr="$(images_buildah from "$ref")"
    # shellcheck disable=SC2016 # expanded inside the image, as its user
    images_buildah run --isolation chroot "$ctr" -- sh -c 'test "$(id -u)" = 185 && test -r /deployments/quarkus-run.jar && java -version' \
      >>"$LOGS/images-$service.log" 2>&1 || die "$ref does not run java as uid 185 ($LOGS/images-$service.log)"
    images_buildah rm "$ctr" >/dev/null
    images_sbom "$service"
    digest="$(images_buildah inspect --type image --format '{{.FromImageDigest}}' "$ref")"
    [ -n "$digest" ] || digest="$(images_buildah images --digests --format '{{.Digest}}' "$ref" | head -n 1)"
    sed -i "/^$service=/d" "$IMAGES_OUT/digests.env.new"
    printf '%s=%s\n' "$service" "$digest" >>"$IMAGES_OUT/digests.env.new"
    info "  $ref $digest (user $user, SBOM .pmedia/images/sbom/$service.cdx.json)"
  done
  mv "$IMAGES_OUT/digests.env.new" "$IMAGES_OUT/digests.env"
  info "images built in $((SECONDS - start)) s; local digests: $IMAGES_OUT/digests.env (pin them with ./pmedia images push)"
}

# ./pmedia images push: every service's image to the registry of the values file; the digests the registry returned
# become the image-digests component. The local store's digests are never written there: a registry may recompress
# layers, so only a pushed digest is one a node can pull.
cmd_images_push() {
  local registry tag entry service runtime pushed
  registry="$(images_value REGISTRY)" tag="$(images_value TAG)"
  pushed="$IMAGES_OUT/pushed"
  rm -rf "$pushed" && mkdir -p "$pushed"
  for entry in "${IMAGE_SERVICES[@]}"; do
    read -r service runtime <<<"$entry"
    info "push $registry/$service:$tag"
    images_buildah push --digestfile "$pushed/$service.digest" "$registry/$service:$tag" \
      >"$LOGS/images-push-$service.log" 2>&1 || die "pushing $registry/$service:$tag failed ($LOGS/images-push-$service.log)"
  done
  images_digest_component "$registry" "$pushed"
  info "digests of the pushed images: $IMAGES_DIGESTS_COMPONENT"
}

# The component (images: name@digest) from DIR/<service>.digest, one per service of deploy/docker/images.txt: every
# image or nothing (a partial file would pin some images to digests and leave the others at their tags, or pin
# digests that were never pushed). Exits non-zero and leaves the file alone when one is missing or malformed.
images_digest_component() {
  local registry="$1" dir="$2" entry service runtime digest lines=""
  for entry in "${IMAGE_SERVICES[@]}"; do
    read -r service runtime <<<"$entry"
    [ -f "$dir/$service.digest" ] || die "no pushed digest for $service: the component is left as it was"
    digest="$(tr -d '[:space:]' <"$dir/$service.digest")"
    [[ $digest =~ ^sha256:[0-9a-f]{64}$ ]] || die "$service: '$digest' is no sha256 digest: the component is left as it was"
    lines+="$(printf '  - name: %s/%s\n    digest: %s' "$registry" "$service" "$digest")"$'\n'
  done
  mkdir -p "$(dirname "$IMAGES_DIGESTS_COMPONENT")"
  {
    echo "# Generated by \`./pmedia images push\` from the digests $registry returned for every image it pushed (buildah"
    echo "# push --digestfile), all of them or none. List it after ../../components/values in an overlay's components."
    echo "# Do not edit; deploy-checks refuses a partial or made-up file."
    echo "apiVersion: kustomize.config.k8s.io/v1alpha1"
    echo "kind: Component"
    echo "images:"
    printf '%s' "$lines"
  } >"$IMAGES_DIGESTS_COMPONENT.new"
  mv "$IMAGES_DIGESTS_COMPONENT.new" "$IMAGES_DIGESTS_COMPONENT"
}
