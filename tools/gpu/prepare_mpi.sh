#!/usr/bin/env bash
# Prepares .carry/mpi/ (git-ignored, under ~40 MiB) for the 2-GPU benchmark on a lent machine
# that may have no MPI: a portable `lockstep` built with lockstep::mpi, the MPI test binary,
# and the OpenMPI runtime of this Debian 12 machine (4.1.4): orterun/mpirun and orted,
# libmpi/libopen-rte/libopen-pal and the shared libraries they need (hwloc, libevent, PMIx, ...;
# glibc excluded: the target's newer glibc serves them), the MCA plugins for one host (shared
# memory and TCP; UCX, OFI, verbs, PSM and OpenSHMEM left out), the help texts and the default
# parameter files. env.sh points OpenMPI and PMIx at this copy (OPAL_PREFIX and friends) and
# sets MPIRUN and LOCKSTEP_MPI for tools/bench/mpi_cg.sh.
# Use (here): tools/gpu/prepare_mpi.sh    (there, carry .carry/mpi; after tools/gpu/prepare.sh,
# which empties .carry/): bash .carry/mpi/opencl-env.sh; source .carry/mpi/env.sh;
# OUT=$OUT bash tools/bench/mpi_cg.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dst="$root/.carry/mpi"
ompi=/usr/lib/x86_64-linux-gnu/openmpi
pmix=/usr/lib/x86_64-linux-gnu/pmix2
launcher=(); command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$root/build-gpu-mpi" -DCMAKE_BUILD_TYPE=Release -DLOCKSTEP_PORTABLE=ON -DLOCKSTEP_MPI=ON "${launcher[@]}" >/dev/null
cmake --build "$root/build-gpu-mpi" -j"$(nproc)" --target lockstep_cli lockstep_mpi_tests >/dev/null
rm -rf "$dst" && mkdir -p "$dst"/{bin,lib/openmpi3,pmix/lib/pmix,share,etc}
cp "$root/build-gpu-mpi/lockstep" "$root/build-gpu-mpi/tests/mpi/lockstep_mpi_tests" "$dst/"
cp "$root/../shared/device/opencl-env.sh" "$dst/"  # the NVIDIA ICD, so .carry/mpi travels alone
cp -L /usr/bin/orterun /usr/bin/orted "$dst/bin/"
ln -s orterun "$dst/bin/mpirun" && ln -s orterun "$dst/bin/mpiexec"
skip='ucx|ofi|openib|psm|atomic_|memheap_|scoll_|spml_|sshmem_|reachable_netlink|_java'
for f in "$ompi"/lib/openmpi3/mca_*.so; do
  [[ $(basename "$f") =~ $skip ]] || cp "$f" "$dst/lib/openmpi3/"
done
cp "$pmix"/lib/pmix/*.so "$dst/pmix/lib/pmix/"
cp -r /usr/share/openmpi "$dst/share/" && cp -r "$pmix/share" "$dst/pmix/" 2>/dev/null || true
cp -r /etc/openmpi/. "$dst/etc/"
# Every shared library the binaries and plugins need, except glibc's own.
glibc='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libresolv\.|libutil\.)'
for f in "$dst"/lockstep "$dst"/lockstep_mpi_tests "$dst"/bin/orterun "$dst"/bin/orted "$dst"/lib/openmpi3/*.so "$dst"/pmix/lib/pmix/*.so; do
  ldd "$f" | awk '$3 ~ /^\// { print $1, $3 }'
done | sort -u | while read -r name path; do
  [[ $name =~ $glibc || $name == libOpenCL* ]] && continue
  [[ -e "$dst/lib/$name" ]] || cp -L "$path" "$dst/lib/$name"
done
cat > "$dst/env.sh" <<'ENV'
# Source me: OpenMPI 4.1.4 and PMIx from this folder, for one host (shared memory, TCP).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX="$here" OPAL_EXEC_PREFIX="$here" OPAL_BINDIR="$here/bin" OPAL_LIBDIR="$here/lib"
export OPAL_PKGLIBDIR="$here/lib/openmpi3" OPAL_DATAROOTDIR="$here/share" OPAL_DATADIR="$here/share"
export OPAL_PKGDATADIR="$here/share/openmpi" OPAL_SYSCONFDIR="$here/etc" OPAL_LIBEXECDIR="$here/bin"
export PMIX_PREFIX="$here/pmix" PMIX_LIBDIR="$here/pmix/lib" PMIX_PKGLIBDIR="$here/pmix/lib/pmix"
export PMIX_DATADIR="$here/pmix/share" PMIX_PKGDATADIR="$here/pmix/share/pmix" PMIX_SYSCONFDIR="$here/pmix/share"
export PMIX_MCA_mca_base_component_path="$here/pmix/lib/pmix" HWLOC_PLUGINS_PATH="$here/lib/hwloc"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PATH="$here/bin:$PATH"
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_osc=sm,pt2pt OMPI_MCA_plm=isolated
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export MPIRUN="$here/bin/mpirun" LOCKSTEP_MPI="$here/lockstep"
ENV
du -sh "$dst"
