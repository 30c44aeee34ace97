#!/usr/bin/env bash
# Creates every Secret pmedia's manifests reference and no operator creates (docs/operations.md, "Create the
# secrets"), with random values, in NAMESPACE. A Secret that exists is left alone: running it twice is safe.
#   deploy/k8s/create-secrets.sh NAMESPACE            create what is missing (kubectl's current context)
#   deploy/k8s/create-secrets.sh --dry-run NAMESPACE  print the Secrets instead (YAML), create nothing
#   deploy/k8s/create-secrets.sh --jwk KEY.pem KID    print the public JWK of a PEM key (for key rotation)
# The S3 credentials come from the environment: PMEDIA_S3_ACCESS_KEY / PMEDIA_S3_SECRET_KEY (media bucket) and, for
# prod's backups, PMEDIA_BACKUP_S3_ACCESS_KEY / PMEDIA_BACKUP_S3_SECRET_KEY (skipped when unset).
set -euo pipefail

jwk() {
  local key=$1 kid=$2 n
  n=$(openssl rsa -in "$key" -noout -modulus | cut -d= -f2 | xxd -r -p | base64 -w0 | tr '+/' '-_' | tr -d '=')
  printf '{"kty":"RSA","kid":"%s","use":"sig","alg":"RS256","n":"%s","e":"AQAB"}\n' "$kid" "$n"
}

if [[ ${1:-} == --jwk ]]; then
  jwk "${2:?key file}" "${3:?key id}"
  exit 0
fi

dry_run=false
if [[ ${1:-} == --dry-run ]]; then dry_run=true; shift; fi
ns=${1:?usage: create-secrets.sh [--dry-run] NAMESPACE}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

random() { openssl rand -hex 32; }

exists() {
  ! $dry_run && kubectl -n "$ns" get secret "$1" >/dev/null 2>&1
}

# create NAME [kubectl create secret arguments...]
create() {
  local name=$1; shift
  if exists "$name"; then
    echo "secret/$name exists, left as it is" >&2
    return
  fi
  if $dry_run; then
    kubectl create secret "$@" --namespace "$ns" --dry-run=client -o yaml
    echo ---
  else
    kubectl create secret "$@" --namespace "$ns"
  fi
}

for service in gateway media batch vton campaign notifier engagement; do
  create "pmedia-db-$service" generic "pmedia-db-$service" --type=kubernetes.io/basic-auth \
    --from-literal=username="pmedia_$service" --from-literal=password="$(random)"
done

create pmedia-admin-token generic pmedia-admin-token --from-literal=token="$(random)"
create pmedia-internal-token generic pmedia-internal-token --from-literal=token="$(random)"

if ! exists pmedia-jwt; then
  kid="$(date -u +%Y-%m)-1"
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072 -out "$work/signing-key.pem" 2>/dev/null
  printf '{"keys":[]}\n' >"$work/jwks.json"
  create pmedia-jwt generic pmedia-jwt --from-file=signing-key.pem="$work/signing-key.pem" \
    --from-literal=key-id="$kid" --from-file=jwks.json="$work/jwks.json"
fi

if [[ -n ${PMEDIA_S3_ACCESS_KEY:-} && -n ${PMEDIA_S3_SECRET_KEY:-} ]]; then
  create pmedia-s3 generic pmedia-s3 --from-literal=access-key="$PMEDIA_S3_ACCESS_KEY" \
    --from-literal=secret-key="$PMEDIA_S3_SECRET_KEY"
else
  echo "PMEDIA_S3_ACCESS_KEY / PMEDIA_S3_SECRET_KEY unset: secret/pmedia-s3 not created" >&2
fi
if [[ -n ${PMEDIA_BACKUP_S3_ACCESS_KEY:-} && -n ${PMEDIA_BACKUP_S3_SECRET_KEY:-} ]]; then
  create pmedia-db-backup-s3 generic pmedia-db-backup-s3 --from-literal=access-key="$PMEDIA_BACKUP_S3_ACCESS_KEY" \
    --from-literal=secret-key="$PMEDIA_BACKUP_S3_SECRET_KEY"
fi
