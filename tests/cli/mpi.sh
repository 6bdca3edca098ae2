# Sourced by the MPI tests (173-176) after lib.sh: $IORIG_MPI (iorig-mpi
# beside $IORIG) and mpi_run, or a skip (77) saying what is missing.
IORIG_MPI=${IORIG_MPI:-$(dirname "$IORIG")/iorig-mpi}
[ -x "$IORIG_MPI" ] || skip "no $IORIG_MPI (make iorig-mpi; needs libopenmpi-dev)"
command -v mpirun >/dev/null 2>&1 || skip "needs mpirun (openmpi-bin)"
# Sanitizer builds: libmpi's own allocations would be reported.
[ -z "${IORIG_SAN:-}" ] || skip "MPI ranks under a sanitizer: libmpi's leaks would be reported"
# As root, Open MPI wants to be told; on 2 CPUs, 4 ranks oversubscribe.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# No network interface search on a test machine: shared memory and self.
export OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader}

# mpi_run N ARGS...: mpirun -np N iorig-mpi ARGS (60 s at most); stdout in
# $T/out, stderr in $T/err, the exit code in $rc.
mpi_run() {
	_np=$1
	shift
	timeout -k 5 60 mpirun -np "$_np" "$IORIG_MPI" "$@" \
		>"$T/out" 2>"$T/err"
	rc=$?
}
