#!/usr/bin/env bash
# Deploy the service to a host.
set -euo pipefail

source ./lib/common.sh
. ./lib/env.sh

TARGET="${1:-staging}"

# Print a message with a timestamp.
log() {
  echo "[$(date +%T)] $*"
}

function build {
  log "building"
  make -C src all
}

deploy() {
  build
  log "deploying to $TARGET"
  rsync -a dist/ "$TARGET:/srv/app/"
}

deploy
