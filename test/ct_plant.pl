#!/usr/bin/perl
# SPDX-License-Identifier: Apache-2.0
#
# Plants a leak into a copy of generated x86_64 assembly, for
# test_ct_planted.sh: the tracer must report it.
#
#   perl ct_plant.pl KIND FUNCTION MNEMONIC <in.S >out.S
#
# KIND: branch (a conditional jump on the secret's low bit, work on one
# side: jrcxz, so that no flag changes; shlx isolates the bit, BMI2), load
# (a byte loaded from a 256-byte table at the secret's low byte), or none (the copy unchanged: the control).  The
# plant goes right after FUNCTION's first instruction whose mnemonic
# matches the regular expression MNEMONIC and whose operands are all
# registers or immediates; its last operand, the register that instruction
# wrote, is the secret.  The planted code keeps every register, the flags
# and the red zone as they were: only its branch or its address leaks.
use strict;
use warnings;

my ($kind, $func, $mnemonic) = @ARGV;
die "usage: ct_plant.pl branch|load|none FUNCTION MNEMONIC <in.S >out.S\n"
	unless defined $mnemonic && $kind =~ /^(branch|load|none)$/;

# The secret into %rax (whose value was saved): by the register's kind.
sub to_rax {
	my ($reg) = @_;
	return "\tvmovq\t%xmm$1, %rax\n" if $reg =~ /^%[xyz]mm(\d+)$/;
	return "\tmovq\t$reg, %rax\n" if $reg =~ /^%(r[a-z]{2}|r\d+)$/;
	return "\tmovl\t$reg, %eax\n" if $reg =~ /^%(e[a-z]{2}|r\d+d)$/;
	die "ct_plant.pl: cannot read the secret from $reg\n";
}

sub plant {
	my ($reg) = @_;
	my $s = "\t# --- planted by test/ct_plant.pl: a $kind on the secret in $reg ---\n";
	# No instruction here reads or writes the flags (an adcx/adox chain
	# may be live across the plant), nor touches the red zone.
	$s .= "\tleaq\t-128(%rsp), %rsp\n\tpushq\t%rax\n\tpushq\t%rcx\n" . to_rax($reg);
	if ($kind eq 'branch') {
		# rcx = the secret's bit 0 alone (shlx: BMI2), then jrcxz on it.
		$s .= "\tmovl\t\$63, %ecx\n\tshlxq\t%rcx, %rax, %rcx\n";
		$s .= "\tjrcxz\t.Lct_plant_skip\n\tnop\n\tnop\n.Lct_plant_skip:\n";
	} else {
		$s .= "\tmovzbl\t%al, %ecx\n\tleaq\t.Lct_plant_table(%rip), %rax\n";
		$s .= "\tmovzbl\t(%rax,%rcx), %eax\n";
	}
	$s .= "\tpopq\t%rcx\n\tpopq\t%rax\n\tleaq\t128(%rsp), %rsp\n";
	if ($kind eq 'load') {
		$s .= "\t.pushsection .rodata\n.Lct_plant_table:\n\t.zero\t256\n\t.popsection\n";
	}
	return $s . "\t# --- end of the plant ---\n";
}

my ($in_func, $done) = (0, 0);
while (my $line = <STDIN>) {
	print $line;
	next if $done || $kind eq 'none';
	if ($line =~ /^\Q$func\E:/) {
		$in_func = 1;
		next;
	}
	next unless $in_func;
	# A new function's label ends the search.
	if ($line =~ /^[A-Za-z_][\w.]*:/ && $line !~ /^\.L/) {
		$in_func = 0;
		next;
	}
	(my $code = $line) =~ s/#.*//;
	next unless $code =~ /^\s+($mnemonic)\s+(.*?)\s*$/;
	my @ops = split /\s*,\s*/, $2;
	next if grep { !/^(%\w+|\$\S+)$/ } @ops;
	next unless $ops[-1] =~ /^%\w+$/;
	print plant($ops[-1]);
	$done = 1;
}
die "ct_plant.pl: no $mnemonic with register operands in $func\n" unless $done || $kind eq 'none';
