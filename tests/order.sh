# Sourced by tests/run-all.sh and tests/guest/run.sh: the order in which
# they start what they run, so that a lane ends on short ones.
#
# longest_first DIR [FILE]: the items on stdin, one "KEY ITEM" a line,
# longest first by the seconds in DIR/KEY (written by the runner when the
# item last passed), else by the line "KEY SECONDS" of FILE (tests/
# times.txt: the times of a whole run, kept in the tree, so that a fresh
# clone, which has no DIR yet, starts long ones first too); none known:
# first; a tie in the order they came.
longest_first() {
	awk -v dir="$1" -v file="${2:-}" '
	BEGIN {
		# FILE read once: its "KEY SECONDS" lines
		while (file != "" && (getline l < file) > 0)
			if (split(l, f, " ") == 2 && f[1] !~ /^#/)
				known[f[1]] = f[2]
	}
	{
		p = dir "/" $1
		if ((getline s < p) > 0)
			close(p)
		else
			s = ($1 in known) ? known[$1] : ""
		if (s !~ /^[0-9]+$/)
			s = 999999
		print s, NR, (NF > 1 ? substr($0, index($0, " ") + 1) : "")
	}' | sort -k 1,1nr -k 2,2n | cut -d ' ' -f 3
}
