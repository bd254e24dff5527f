#!/bin/sh
set -e
python -m app.pipeline "$@"
