#!/usr/bin/perl
# Becomes the UML kernel (its arguments: linux.uml and the kernel's command line); on a host with AMX, with one host
# system call refused and without AVX for the programs in the kernel.
#
# Debian's UML 6.1 keeps its processes' floating-point registers as an XSAVE area of a size fixed when it was built
# (2696 bytes: up to AVX-512 and PKRU), read and written with ptrace(PTRACE_GETREGSET/SETREGSET, NT_X86_XSTATE). A host
# whose XSAVE area is larger (an Intel Xeon with AMX: 11008 bytes) refuses to write one that small (EFAULT): the
# kernel's first process dies at once and the kernel panics, so no UML lab starts there. On such a host the kernel is
# refused its first GETREGSET (a seccomp filter, stacked on Docker's: it can only refuse more), and keeps the registers
# with PTRACE_GETFPREGS/SETFPREGS instead (the 512-byte FXSAVE area). That area holds no AVX state, and a page fault
# of a process resets it (UML takes the fault in a signal handler of the process's host process and resumes it
# without sigreturn), so the programs in the kernel are told not to use AVX: glibc chooses its string and memory
# functions by the hwcaps tunable (GLIBC_TUNABLES, which the kernel hands its init as an environment variable, and
# init, the agent and the nodes pass on). Upstream UML finds the host's size itself (6.13).
#
# TCLAB_UML_FXSAVE=1 in the environment takes the FXSAVE path on any host (the tests play an AMX host with it).
# No single quote outside comments: UmlScripts puts the code, without its comment lines, between single quotes in
# the container's shell command.
use strict;
use warnings;

use constant {
    SYS_PRCTL => 157, PR_SET_NO_NEW_PRIVS => 38, PR_SET_SECCOMP => 22, SECCOMP_MODE_FILTER => 2,
    AUDIT_ARCH_X86_64 => 0xc000003e, SYS_PTRACE => 101, PTRACE_GETREGSET => 0x4204, NT_X86_XSTATE => 0x202,
    # Classic BPF over struct seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8 i (the low half, little-endian).
    LD_W_ABS => 0x20, JEQ_K => 0x15, RET_K => 0x06,
    RET_ALLOW => 0x7fff0000, RET_EIO => 0x00050000 | 5,
    # Every AVX feature glibc 2.36 chooses a function by, and the preference for its unaligned AVX copies.
    NO_AVX => "GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX,-AVX2,-FMA,-FMA4,-AVX512F,-AVX512CD,-AVX512ER,-AVX512PF,"
        . "-AVX512VL,-AVX512DQ,-AVX512BW,-AVX_Fast_Unaligned_Load",
};

sub host_has_amx {
    open(my $cpuinfo, "<", "/proc/cpuinfo") or return 0;
    while (my $line = <$cpuinfo>) {
        return 1 if $line =~ /^flags\s*:.*\bamx_tile\b/;
    }
    return 0;
}

sub run_kernel {
    exec { $ARGV[0] } @ARGV
        or do { print "tclab-kernel: cannot run $ARGV[0]: $!\n"; exit 1 };
}

# UML 6.13 and later size the XSAVE area from the host, and 7.2 in ptrace mode does not boot with GETREGSET refused
# ("Failed to initialize default registers"): what follows is for an older kernel only (the lab image falls back to
# Debian 12 UML 6.1 when it cannot have 7.2: lab-image/uml-kernel.sh). The release is that of the modules it brings.
sub sizes_xsave_from_host {
    opendir(my $modules, "/usr/lib/uml/modules") or return 0;
    for my $release (readdir($modules)) {
        return 1 if $release =~ /^(\d+)\.(\d+)\./ && ($1 > 6 || ($1 == 6 && $2 >= 13));
    }
    return 0;
}

run_kernel() if sizes_xsave_from_host() || !(($ENV{TCLAB_UML_FXSAVE} || "") eq "1" || host_has_amx());

sub load { pack("SCCL", LD_W_ABS, 0, 0, $_[0]) }
# Goes on when the value loaded equals the first argument; otherwise skips the second argument of instructions.
sub unless_equal { pack("SCCL", JEQ_K, 0, $_[1], $_[0]) }
sub ret { pack("SCCL", RET_K, 0, 0, $_[0]) }

my $filter = join("",
    load(4), unless_equal(AUDIT_ARCH_X86_64, 7),
    load(0), unless_equal(SYS_PTRACE, 5),
    load(16), unless_equal(PTRACE_GETREGSET, 3),
    load(32), unless_equal(NT_X86_XSTATE, 1),
    ret(RET_EIO),
    ret(RET_ALLOW));
# struct sock_fprog: the number of instructions, then (aligned) a pointer to them.
my $program = pack("S x6 p", length($filter) / 8, $filter);

# The console is the line to the app: a refusal is said there, and the app reports what the console last said.
syscall(SYS_PRCTL, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
    and syscall(SYS_PRCTL, PR_SET_SECCOMP, SECCOMP_MODE_FILTER, $program) == 0
    or do { print "tclab-kernel: cannot filter the host calls of the kernel: $!\n"; exit 1 };
push(@ARGV, NO_AVX);
run_kernel();
