#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
#
# Prints an openssl.cnf that loads the zinc module given as $1 next to the
# default provider and prefers zinc, as a user enables it (README): zinc
# after default, so that its decoders are tried first.
# Used by the shell tests.
cat <<CNF
openssl_conf = openssl_init
# Node.js reads this one instead (test_node.sh).
nodejs_conf = openssl_init
[openssl_init]
providers = providers
alg_section = algorithms
[providers]
default = default_sect
zinc = zinc_sect
[zinc_sect]
module = $1
activate = 1
# Not [default]: that is the name of the file's unnamed first section.
[default_sect]
activate = 1
[algorithms]
default_properties = ?zinc.preferred
CNF
