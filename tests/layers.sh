#!/bin/sh
# The layering rules of DESIGN §1, as a test.
exec sh scripts/check-layers.sh
