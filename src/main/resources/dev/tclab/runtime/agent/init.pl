#!/usr/bin/perl
# The first process of a UML lab's kernel (UmlScripts.boot). Its standard input and output are the kernel's console,
# which is the container's standard input and output: the app's line to the agent, so nothing else may write there.
# The root filesystem is the lab image, read-only through hostfs; what the kernel needs to write is a tmpfs of its own
# (charged to its memory, mem= on the kernel command line).
# Perl, and the agent run in a fork of it rather than a program of its own: every program a UML kernel starts is read
# through hostfs and run under ptrace (a perl costs 0.1-0.5 s there, a mount or stty 20-50 ms), so the mounts and the
# console's settings are system calls, and the agent's perl is this one.
use strict;
use warnings;
use POSIX ();

# The kernel starts init with no PATH, and programs the agent runs without a shell (timeout running nsenter, say)
# would search only /bin and /usr/bin.
$ENV{PATH} = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

use constant {
    SYS_MOUNT => 165, SYS_REBOOT => 169, SYS_FINIT_MODULE => 313, MS_NOSUID => 2, MS_NODEV => 4, MS_NOEXEC => 8,
};

sub mount_fs {
    my ($type, $target, $flags, $data) = @_;
    syscall(SYS_MOUNT, $type, $target, $type, 0 + $flags, defined $data ? $data : 0) == 0
        or die "mount $type on $target: $!\n";
}

sub write_file {
    my ($path, $value) = @_;
    open(my $f, '>', $path) or die "$path: $!\n";
    print $f "$value\n";
    close($f) or die "$path: $!\n";
}

# Without its mounts, console settings or agent the kernel is of no use: then it says why on the console and powers
# off (the container ends, and the app's wait for the agent with it).
eval {
    mount_fs('proc', '/proc', MS_NOSUID | MS_NODEV | MS_NOEXEC);
    mount_fs('sysfs', '/sys', MS_NOSUID | MS_NODEV | MS_NOEXEC);
    # Each node's processes are a cgroup of their own (lab.pl): a capped process count and a share of the kernel's one
    # CPU equal to each other node's, so that a fork bomb in one node leaves the others and the agent slots and time.
    mount_fs('cgroup2', '/sys/fs/cgroup', MS_NOSUID | MS_NODEV | MS_NOEXEC);
    write_file('/sys/fs/cgroup/cgroup.subtree_control', '+pids +cpu');
    # A hostfs /run breaks `ip netns` (it bind-mounts namespace files there).
    mount_fs('tmpfs', '/run', MS_NOSUID | MS_NODEV, 'mode=755,size=16m');
    mount_fs('tmpfs', '/tmp', MS_NOSUID | MS_NODEV, 'mode=1777,size=16m');
    mount_fs('devtmpfs', '/dev', MS_NOSUID) unless -c '/dev/null';
    -d '/dev/pts' or mkdir('/dev/pts', 0755) or die "mkdir /dev/pts: $!\n";
    mount_fs('devpts', '/dev/pts', MS_NOSUID | MS_NOEXEC, 'ptmxmode=0666,mode=620');

    # Only emergencies reach the console: a kernel warning there (tc prints some) would break the agent's framing.
    write_file('/proc/sys/kernel/printk', 1);
    # What `stty raw -echo` sets: the console passes every byte as it comes, and echoes none.
    my $console = POSIX::Termios->new;
    $console->getattr(0) or die "console: $!\n";
    $console->setiflag($console->getiflag & ~(POSIX::IGNBRK() | POSIX::BRKINT() | POSIX::PARMRK() | POSIX::ISTRIP()
        | POSIX::INLCR() | POSIX::IGNCR() | POSIX::ICRNL() | POSIX::IXON() | POSIX::IXOFF() | POSIX::INPCK()));
    $console->setoflag($console->getoflag & ~POSIX::OPOST());
    $console->setlflag($console->getlflag & ~(POSIX::ECHO() | POSIX::ECHONL() | POSIX::ICANON() | POSIX::ISIG()
        | POSIX::IEXTEN()));
    $console->setcflag(($console->getcflag & ~(POSIX::CSIZE() | POSIX::PARENB())) | POSIX::CS8());
    $console->setcc(POSIX::VMIN(), 1);
    $console->setcc(POSIX::VTIME(), 0);
    $console->setattr(0, POSIX::TCSANOW()) or die "console: $!\n";
    # The kernel's out-of-memory killer never picks this process or the agent (nor a node's first process, forked from
    # it); what a learner runs is set back to 0 (lab.pl).
    write_file('/proc/self/oom_score_adj', -1000);
    1;
} or do {
    print "tclab-init: $@";
    power_off();
};

# On a host where the kernel's processes must not use AVX (kernel.pl gave the kernel GLIBC_TUNABLES, which it handed
# this process), a program the kernel starts by itself is not told so: modprobe, which it starts to load a qdisc's,
# classifier's or action's module on demand, would fail there. So every such module is loaded now, from its file,
# with the modules it needs first (modules.dep). One that does not load is left to the kernel's own loading.
load_modules() if defined $ENV{GLIBC_TUNABLES};

sub load_modules {
    my $dir = '/lib/modules/' . (POSIX::uname())[2];
    open(my $dep, '<', "$dir/modules.dep") or return;
    my %needs;
    while (my $line = <$dep>) {
        my ($module, $needed) = $line =~ /^(\S+):\s*(.*)$/ or next;
        $needs{$module} = [split(' ', $needed)];
    }
    my %tried;
    my $load;
    $load = sub {
        my ($module) = @_;
        return if $tried{$module}++;
        $load->($_) for reverse @{ $needs{$module} };
        open(my $file, '<', "$dir/$module") or return;
        my $no_options = '';
        syscall(SYS_FINIT_MODULE, fileno($file), $no_options, 0);
    };
    $load->($_) for grep { m{^kernel/(net/sched/|drivers/net/(ifb|veth|dummy)\.ko$)} } sort keys %needs;
}

# The agent serves the app; this process reaps whatever is left to it (servers a measurement started) and, once the
# agent is gone, powers the kernel off so that the container ends (an init that exits panics the kernel, and the
# container would stay up doing nothing).
my $agent = fork();
if (defined $agent && $agent == 0) {
    open(STDERR, '>', '/dev/null');
    $0 = 'tclab-agent';
    do '/tclab/agent.pl';
    POSIX::_exit(127);
}
while (1) {
    my $pid = wait();
    last if !defined $agent || $pid == $agent || $pid < 0;
}
power_off();

# reboot(2) with LINUX_REBOOT_CMD_POWER_OFF; x86-64 is the only architecture UML runs here.
sub power_off {
    syscall(SYS_REBOOT, 0xfee1dead, 672274793, 0x4321fedc);
    POSIX::_exit(1);
}
