# SPDX-License-Identifier: Apache-2.0
#
# `make bench`'s plot: throughput against message size, one panel per
# algorithm and one line per column of test/bench, from its BENCH_DATA file.
#
#   gnuplot -e "data='bench.tsv'; out='bench/bench'; heading='CPU, date'" \
#           -e "method='median of ...'; versions='zinc ...\nOpenSSL ...'" bench.gp
#
# writes out.svg and out.png; `method` (how the points were timed) and
# `versions` (of what was timed) are optional.  The panels name test/bench's
# tables by title: keep them in step with operations[] in test/bench.c.

set datafile separator "\t"
set datafile commentschars "#"
if (!exists("method")) { method = "median of several runs per point" }
if (!exists("versions")) { versions = "" }

# Panels: test/bench's table title, then what the panel says.
array T[6] = ["ChaCha20", "ChaCha20-Poly1305 TLS-like record", "XChaCha20-Poly1305 record", \
	      "POLY1305 MAC", "BLAKE2S-256", "BLAKE2SMAC"]
array P[6] = ["ChaCha20 (EVP stream, no per-message set-up)", \
	      "ChaCha20-Poly1305 (TLS-like record, 13-byte AAD)", \
	      "XChaCha20-Poly1305 (the same record, 24-byte nonce)", \
	      "Poly1305 (one-time key, init + update + final)", \
	      "BLAKE2s-256 digest (init + update + final)", \
	      "BLAKE2s keyed MAC (32-byte key and output)"]

# Columns (lines), each with its own colour and dash wherever it appears.
array L[5] = ["zinc", "default", "libsodium", "libb2", "zinc ChaCha20-Poly1305"]
array K[5] = ["zinc", "OpenSSL default", "libsodium", "libb2", "zinc ChaCha20-Poly1305 (for scale)"]
array C[5] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#56b4e9"]
array D[5] = [1, 1, 1, 1, 2]
array M[5] = [7, 5, 9, 13, 6]

# The title names what the data has.
others = "OpenSSL's default provider"
stats data using (strcol(4) eq "libsodium" ? 1 : 0) nooutput
sodium = STATS_sum > 0
stats data using (strcol(4) eq "libb2" ? 1 : 0) nooutput
b2 = STATS_sum > 0
others = others.(sodium && b2 ? ", libsodium and libb2" : sodium ? " and libsodium" : \
		 b2 ? " and libb2" : "")

sizes = '(16, 64, 256, "1K" 1024, "4K" 4096, "16K" 16384)'

do for [fmt = 1:2] {
	if (fmt == 1) {
		set terminal svg size 1000,1300 dynamic enhanced font "DejaVu Sans,12" background "white"
		set output out.".svg"
	} else {
		set terminal pngcairo size 1000,1300 enhanced font "DejaVu Sans,11" background "white"
		set output out.".png"
	}
	set multiplot layout 4,2 title "zinc against ".others."\n{/*0.85 ".heading."}"
	set border 31
	set tics
	set grid xtics ytics lc rgb "#dddddd"
	set key top left Left reverse samplen 2.5 spacing 1.1 font ",10" box lc rgb "#bbbbbb" opaque
	set logscale x 2
	set xrange [12:22000]
	eval "set xtics ".sizes
	set format y "%g"
	set yrange [0:*]
	set offsets 0, 0, graph 0.3, 0	# room for the key above the lines
	set xlabel "message size (bytes)" offset 0,0.5
	set ylabel "GB/s"
	do for [p = 1:6] {
		# Only the columns this table has, so that the key lists no empty line.
		cols = ""
		do for [i = 1:5] {
			stats data using ((strcol(1) eq T[p] && strcol(3) eq L[i]) ? 1 : 0) nooutput
			if (STATS_sum > 0) { cols = cols." ".i }
		}
		set title P[p] font ",11"
		plot for [w in cols] data \
			using ((strcol(1) eq T[p] && strcol(3) eq L[w + 0]) ? $2 : NaN):($6 / 1000) \
			with linespoints lw 2 dt D[w + 0] pt M[w + 0] ps 0.8 lc rgb C[w + 0] \
			title K[w + 0]
	}

	# X25519 has no size: thousands of operations per second, one bar per column.
	set title "X25519 (derive: shared secret; keygen: key pair)" font ",11"
	unset logscale x
	set xrange [-0.5:1.5]
	set xtics ("derive" 0, "keygen" 1)
	unset xlabel
	set ylabel "thousand op/s"
	set yrange [0:*]
	set style fill solid 0.85 border -1
	set boxwidth 0.22
	set offsets 0, 0, graph 0.3, 0	# room for the key and the values on the bars
	cols = ""
	do for [i = 1:3] {
		stats data using ((strcol(1) eq "X25519" && strcol(3) eq L[i]) ? 1 : 0) nooutput
		if (STATS_sum > 0) { cols = cols." ".i }
	}
	n = words(cols)
	xpos(row, k) = (row eq "derive" ? 0 : 1) + (k - (n + 1) / 2.0) * 0.24
	plot for [k = 1:n] data \
		using ((strcol(1) eq "X25519" && strcol(3) eq L[word(cols, k) + 0]) ? \
		       xpos(strcol(2), k) : NaN):($6 / 1000) \
		with boxes lc rgb C[word(cols, k) + 0] title K[word(cols, k) + 0], \
	     for [k = 1:n] data \
		using ((strcol(1) eq "X25519" && strcol(3) eq L[word(cols, k) + 0]) ? \
		       xpos(strcol(2), k) : NaN):($6 / 1000):(sprintf("%.1f", $6 / 1000)) \
		with labels offset 0,0.7 font ",9" notitle
	unset style fill
	unset boxwidth
	set offsets 0, 0, 0, 0

	# The last cell: how the points were measured, and what by.
	unset title
	unset key
	unset border
	unset tics
	unset grid
	unset ylabel
	set xrange [0:1]
	set yrange [0:1]
	set label 1 at graph 0, 0.92 left font ",10.5" \
		method.",\n" . \
		"all from one run of test/bench (make bench),\n" . \
		"the columns of a row timed in turn.\n" . \
		"GB/s: 10^9 message bytes per second.\n" . \
		"libsodium and libb2 are timed only after giving\n" . \
		"zinc's output bytes for the same input."
	set label 2 at graph 0, 0.36 left font ",8.5" noenhanced versions
	plot NaN notitle
	unset label 1
	unset label 2
	unset multiplot
	unset output
}
