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
	_lf_i=0
	while read -r _lf_k _lf_item; do
		_lf_s=$(cat "$1/$_lf_k" 2>/dev/null)
		[ -n "$_lf_s" ] || [ -z "${2:-}" ] ||
			_lf_s=$(awk -v k="$_lf_k" '$1 == k { print $2 }' \
				"$2" 2>/dev/null)
		case $_lf_s in ''|*[!0-9]*) _lf_s=999999 ;; esac
		_lf_i=$((_lf_i + 1))
		echo "$_lf_s $_lf_i $_lf_item"
	done | sort -k 1,1nr -k 2,2n | cut -d ' ' -f 3
}
