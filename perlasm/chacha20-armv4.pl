#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# STUB: to be written (chacha20 for armv4).
use strict;
use warnings;
use zinc_arm;

my $file = asm_open(@ARGV);
asm_close($file);
