#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# CPUID and XGETBV for run-time feature detection (provider/crypto/cpu.c).
#
#   void     zinc_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4]);
#   uint64_t zinc_xgetbv(uint32_t xcr);
use strict;
use warnings;
use zinc_x86_64;

my $file = asm_open(@ARGV);

# System V arguments.
my ($leaf, $subleaf, $out) = ('%edi', '%esi', '%rdx');

function_begin('zinc_cpuid');
code(<<___);
	movq	%rbx, %r8		# cpuid clobbers the callee-saved rbx
	movq	$out, %r9		# and rdx, which holds out
	movl	$leaf, %eax
	movl	$subleaf, %ecx
	cpuid
	movl	%eax, 0(%r9)
	movl	%ebx, 4(%r9)
	movl	%ecx, 8(%r9)
	movl	%edx, 12(%r9)
	movq	%r8, %rbx
	ret
___
function_end('zinc_cpuid');

function_begin('zinc_xgetbv');
code(<<___);
	movl	%edi, %ecx
	xgetbv
	shlq	\$32, %rdx
	orq	%rdx, %rax
	ret
___
function_end('zinc_xgetbv');

asm_close($file);
