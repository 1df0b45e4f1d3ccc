# Makes a UML lab's nodes and sets them up, run by the agent in the kernel's root namespaces (UmlLab), as perl
# source in a fork of the agent (its E request: no program started for it):
#   wire TMP_MIB HOME_MIB RUN_MIB PIDS [node=NAME [env=NAME=VALUE]... [sysctl=KEY=VALUE]...]...
#        [link=IFACE_A,NODE_A,IFACE_B,NODE_B]...
#   setup [node=NAME script=SHELL_SCRIPT]...
#   enter NAME COMMAND...
#   pids NAME
# `wire` makes every node (its own network, mount, PID, UTS and IPC namespaces, held by a process that reaps its
# orphans, and its own cgroup of at most PIDS processes, the kernel's CPU shared equally among the nodes), the links (veth pairs) and the nodes' sysctls, and brings each node's interfaces up; `setup` runs each
# node's setup script as its learner, all nodes at once, and fails with the first failing node's output; `enter`
# becomes COMMAND run as the node's learner (a terminal's shell: the agent runs it on the terminal's pseudo-terminal);
# `pids` prints how many processes the node runs and its limit.
# Every program a UML kernel starts is read through hostfs and run under ptrace: `ip` costs 0.1-0.4 s there, a perl
# 0.1-0.5 s, against milliseconds for a system call. So the nodes, links, sysctls and the learner's namespaces and
# capabilities are system calls (unshare, mount, mknod, setns, netlink, finit_module, prctl) from this one process,
# and the only programs started are one shell per node's setup, the programs of its setup commands and a terminal's
# shell: the platform's side of entering a node is this process, from the kernel's read-only root, which no node
# can change. What a node looks like to the rest of the runtime (nsenter): its network namespace is named NAME for
# `ip netns`, its holder's pid is in /run/tclab/nodes/NAME.pid and the environment its shells get in NAME.env.
# A package of its own: the agent it runs in (a fork of init.pl) has subroutines of its own in main.
package TclabLab;

use strict;
use warnings;
use POSIX ();

# x86-64 system call numbers: UML runs here on no other architecture.
use constant { SYS_MOUNT => 165, SYS_MKNOD => 133, SYS_SETHOSTNAME => 170, SYS_UNSHARE => 272, SYS_SETNS => 308,
               SYS_PRCTL => 157, SYS_CAPGET => 125, SYS_CAPSET => 126, SYS_FINIT_MODULE => 313 };
use constant { CLONE_NEWNS => 0x20000, CLONE_NEWUTS => 0x4000000, CLONE_NEWIPC => 0x8000000,
               CLONE_NEWPID => 0x20000000, CLONE_NEWNET => 0x40000000 };
use constant { MS_RDONLY => 1, MS_NOSUID => 2, MS_NODEV => 4, MS_NOEXEC => 8, MS_REMOUNT => 32, MS_BIND => 4096,
               MS_REC => 16384, MS_PRIVATE => 1 << 18 };
use constant { PR_CAPBSET_DROP => 24, PR_SET_NO_NEW_PRIVS => 38, PR_CAP_AMBIENT => 47, PR_CAP_AMBIENT_CLEAR_ALL => 4,
               CAP_NET_ADMIN => 12, CAP_NET_RAW => 13, CAP_LAST => 63 };
use constant { SIOCGIFFLAGS => 0x8913, SIOCSIFFLAGS => 0x8914, IFF_UP => 1 };
use constant { AF_NETLINK => 16, SOCK_RAW => 3, RTM_NEWLINK => 16, NLMSG_ERROR => 2, NLM_F_REQUEST => 1,
               NLM_F_ACK => 4, NLM_F_EXCL => 0x200, NLM_F_CREATE => 0x400, IFLA_IFNAME => 3, IFLA_LINKINFO => 18,
               IFLA_NET_NS_FD => 28, IFLA_INFO_KIND => 1, IFLA_INFO_DATA => 2, VETH_INFO_PEER => 1 };

my $DIR = '/run/tclab/nodes';
my $CGROUPS = '/sys/fs/cgroup';
my $PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
$ENV{PATH} = $PATH;

sub fail { print STDERR @_, "\n"; exit 1; }

sub mount_fs {
    my ($type, $target, $flags, $data) = @_;
    syscall(SYS_MOUNT, $type, $target, $type, 0 + $flags, defined $data ? $data : 0) == 0
        or die "mount $type on $target: $!\n";
}

# Binds $path onto itself read-only: the node's root cannot undo it without CAP_SYS_ADMIN.
sub read_only {
    my ($path) = @_;
    syscall(SYS_MOUNT, $path, $path, 0, 0 + MS_BIND, 0) == 0 or die "bind $path: $!\n";
    syscall(SYS_MOUNT, $path, $path, 0, 0 + (MS_BIND | MS_REMOUNT | MS_RDONLY), 0) == 0
        or die "read-only $path: $!\n";
}

sub device {
    my ($path, $major, $minor) = @_;
    # S_IFCHR | 0666 (the umask is cleared first), and the old 16-bit device number, enough for these.
    syscall(SYS_MKNOD, $path, 0 + (0020000 | 0666), 0 + (($major << 8) | $minor)) == 0
        or die "mknod $path: $!\n";
}

# The node's first process: pid 1 of its namespaces. Mounts what a node needs, says so on $up, then holds the
# namespaces and reaps its orphans until the kernel stops.
sub hold {
    my ($name, $tmp, $home, $run, $up) = @_;
    umask 0;
    syscall(SYS_SETHOSTNAME, $name, 0 + length $name) == 0 or die "hostname: $!\n";
    mount_fs('proc', '/proc', MS_NOSUID | MS_NODEV | MS_NOEXEC);
    # As Docker leaves them in a container. A SysRq prints on the console, the app's line to the agent, whatever the
    # console's level (a learner's `echo h > /proc/sysrq-trigger` cut the line's framing), and kernel.printk would let
    # the kernel's warnings there too. The platform writes a node's sysctls from outside its mount namespace (wire).
    read_only($_) for ('/proc/sys', '/proc/sysrq-trigger');
    # UML's own files, one for the whole kernel whichever node writes them (root may, by their mode): 0 in sysemu
    # hangs the kernel at 100 % of a core, and exitcode sets the exit status of the kernel's process on the host
    # (docs/SECURITY.md). A bind over a file holds: the learner has no CAP_SYS_ADMIN to unmount it, and a proc mounted
    # in a user namespace of its own is refused while these hide part of this one (the kernel's mount_too_revealing).
    read_only($_) for grep { -e } ('/proc/sysemu', '/proc/exitcode');
    mount_fs('sysfs', '/sys', MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC);
    # Only the harmless devices and a pty instance of its own: no console, which is the app's line to the agent.
    mount_fs('tmpfs', '/dev', MS_NOSUID | MS_NOEXEC, 'mode=755,size=64k');
    device('/dev/null', 1, 3); device('/dev/zero', 1, 5); device('/dev/full', 1, 7);
    device('/dev/random', 1, 8); device('/dev/urandom', 1, 9); device('/dev/tty', 5, 0);
    mkdir($_, 0755) or die "mkdir $_: $!\n" for ('/dev/pts', '/dev/shm');
    mount_fs('devpts', '/dev/pts', MS_NOSUID | MS_NOEXEC, 'newinstance,ptmxmode=0666,mode=620');
    symlink('pts/ptmx', '/dev/ptmx') && symlink('/proc/self/fd', '/dev/fd') && symlink('/proc/self/fd/0', '/dev/stdin')
        && symlink('/proc/self/fd/1', '/dev/stdout') && symlink('/proc/self/fd/2', '/dev/stderr')
        or die "symlinks in /dev: $!\n";
    mount_fs('tmpfs', '/tmp', MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=1777,size=${tmp}m");
    mount_fs('tmpfs', '/root', MS_NOSUID | MS_NODEV, "mode=700,size=${home}m");
    mount_fs('tmpfs', '/run', MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=755,size=${run}m");
    mount_fs('tmpfs', '/dev/shm', MS_NOSUID | MS_NODEV | MS_NOEXEC, 'size=1m');
    umask 022;
    syswrite($up, "up\n");
    close($up);
    chdir('/');
    open(STDIN, '<', '/dev/null');
    open(STDOUT, '>', '/dev/null');
    open(STDERR, '>', '/dev/null');
    $0 = "tclab-node $name";
    # Ignored SIGCHLD: the kernel reaps the orphans of the node, whose pid 1 this is.
    $SIG{CHLD} = 'IGNORE';
    POSIX::pause() while 1;
}

# Moves this process into node $name's cgroup (init.pl mounted the hierarchy): what it starts counts there.
sub join_cgroup {
    my ($name) = @_;
    open(my $procs, '>', "$CGROUPS/node-$name/cgroup.procs") or die "cgroup of $name: $!\n";
    print $procs "$$\n";
    close($procs) or die "joining the cgroup of $name: $!\n";
}

# Makes a node; returns its holder's pid (in the kernel's root PID namespace).
sub make_node {
    my ($name, $tmp, $home, $run, $pids, $env) = @_;
    mkdir("$CGROUPS/node-$name") or die "cgroup of $name: $!\n";
    open(my $max, '>', "$CGROUPS/node-$name/pids.max") or die "cgroup of $name: $!\n";
    print $max "$pids\n";
    close($max) or die "pids.max of $name: $!\n";
    open(my $env_file, '>', "$DIR/$name.env") or die "$DIR/$name.env: $!\n";
    print $env_file map { "$_\n" } @$env;
    close($env_file);
    pipe(my $up_r, my $up_w) or die "pipe: $!\n";
    pipe(my $pid_r, my $pid_w) or die "pipe: $!\n";
    defined(my $maker = fork()) or die "fork: $!\n";
    if ($maker == 0) {
        close($up_r); close($pid_r);
        eval {
            join_cgroup($name);
            syscall(SYS_UNSHARE, 0 + (CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID)) == 0
                or die "unshare: $!\n";
            # (syscall passes strings by address and wants them writable: no literals.)
            my ($none, $root) = ('none', '/');
            syscall(SYS_MOUNT, $none, $root, 0, 0 + (MS_REC | MS_PRIVATE), 0) == 0 or die "private mounts: $!\n";
            defined(my $holder = fork()) or die "fork: $!\n";
            if ($holder == 0) {
                close($pid_w);
                eval { hold($name, $tmp, $home, $run, $up_w); };
                syswrite($up_w, "node $name did not start: $@");
                POSIX::_exit(1);
            }
            syswrite($pid_w, "$holder\n");
        };
        syswrite($up_w, "node $name did not start: $@") if $@;
        POSIX::_exit($@ ? 1 : 0);
    }
    close($up_w); close($pid_w);
    my $said = join('', <$up_r>);
    my $holder = <$pid_r>;
    waitpid($maker, 0);
    die "$said" unless $said eq "up\n" && defined $holder && $holder =~ /^(\d+)$/;
    $holder = $1;
    # What `ip netns attach` does: the node's network namespace, named for ip and nsenter.
    my $netns = "/run/netns/$name";
    open(my $mark, '>', $netns) or die "$netns: $!\n";
    close($mark);
    my $source = "/proc/$holder/ns/net";
    syscall(SYS_MOUNT, $source, $netns, 0, 0 + MS_BIND, 0) == 0 or die "naming the network of $name: $!\n";
    open(my $pid_file, '>', "$DIR/$name.pid") or die "$DIR/$name.pid: $!\n";
    print $pid_file "$holder\n";
    close($pid_file);
    return $holder;
}

# Runs $code with this process in the node's network namespace, then back in the kernel's.
sub in_network {
    my ($name, $code) = @_;
    open(my $root, '<', '/proc/self/ns/net') or die "own network: $!\n";
    open(my $node, '<', "/run/netns/$name") or die "no node $name: $!\n";
    syscall(SYS_SETNS, fileno($node), 0 + CLONE_NEWNET) == 0 or die "entering the network of $name: $!\n";
    my $ok = eval { $code->(); 1 };
    my $error = $@;
    syscall(SYS_SETNS, fileno($root), 0 + CLONE_NEWNET) == 0 or die "leaving the network of $name: $!\n";
    die $error unless $ok;
}

# The veth module, loaded from its file: the kernel's own loading on demand would start modprobe.
sub load_veth {
    my $file = '/lib/modules/' . (POSIX::uname())[2] . '/kernel/drivers/net/veth.ko';
    return unless -e $file;    # built in
    open(my $module, '<', $file) or fail("$file: $!");
    my $no_options = '';
    syscall(SYS_FINIT_MODULE, fileno($module), $no_options, 0) == 0 || $!{EEXIST} or fail("loading veth: $!");
}

sub attribute {
    my ($type, $data) = @_;
    my $length = 4 + length $data;
    return pack('S S', $length, $type) . $data . ("\0" x ((4 - $length % 4) % 4));
}

# An interface named $name in the network namespace of node $node: its ifinfomsg and attributes. (Down: a veth
# end cannot come up before its peer exists, so both come up once made.)
sub end_of_link {
    my ($name, $node) = @_;
    open(my $ns, '<', "/run/netns/$node") or die "no node $node: $!\n";
    return (pack('C x S l L L', 0, 0, 0, 0, 0) . attribute(IFLA_IFNAME, "$name\0")
        . attribute(IFLA_NET_NS_FD, pack('L', fileno($ns))), $ns);
}

# What `ip link add A netns X type veth peer name B netns Y` asks the kernel.
sub veth {
    my ($netlink, $a, $a_node, $b, $b_node) = @_;
    my ($peer, $b_ns) = end_of_link($b, $b_node);
    my ($link, $a_ns) = end_of_link($a, $a_node);
    my $body = $link . attribute(IFLA_LINKINFO,
        attribute(IFLA_INFO_KIND, "veth\0") . attribute(IFLA_INFO_DATA, attribute(VETH_INFO_PEER, $peer)));
    my $flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
    my $kernel = pack('S x2 L L', AF_NETLINK, 0, 0);
    send($netlink, pack('L S S L L', 16 + length $body, RTM_NEWLINK, $flags, 1, 0) . $body, 0, $kernel)
        or die "netlink: $!\n";
    defined(recv($netlink, my $reply, 65536, 0)) or die "netlink: $!\n";
    my ($type, $error) = unpack('x4 S x10 l', $reply);
    die "the kernel's answer is not an acknowledgement\n" unless $type == NLMSG_ERROR;
    if ($error) {
        $! = -$error;
        die "$!\n";
    }
}

sub link_up {
    my ($iface) = @_;
    socket(my $s, 2, 2, 0) or die "socket: $!\n";    # AF_INET, SOCK_DGRAM: any socket takes the ioctls
    my $request = pack('a16 s x22', $iface, 0);
    ioctl($s, SIOCGIFFLAGS, $request) or die "no interface $iface: $!\n";
    my $flags = unpack('x16 s', $request);
    ioctl($s, SIOCSIFFLAGS, pack('a16 s x22', $iface, $flags | IFF_UP)) or die "$iface up: $!\n";
}

sub wire {
    my ($tmp, $home, $run, $pids, @spec) = @_;
    my (@nodes, %env, %sysctls, @links, $node);
    for (@spec) {
        if (/^node=(.+)$/s) { $node = $1; push @nodes, $node; $env{$node} = []; $sysctls{$node} = []; }
        elsif (/^env=(.*)$/s && defined $node) { push @{ $env{$node} }, $1; }
        elsif (/^sysctl=([^=]+)=(.*)$/s && defined $node) { push @{ $sysctls{$node} }, [$1, $2]; }
        elsif (/^link=([^,]+),([^,]+),([^,]+),([^,]+)$/) { push @links, [$1, $2, $3, $4]; }
        else { fail("not understood: $_"); }
    }
    for my $dir ('/run/tclab', $DIR, '/run/netns') { -d $dir or mkdir($dir, 0755) or fail("mkdir $dir: $!"); }
    for my $name (@nodes) {
        eval { make_node($name, $tmp, $home, $run, $pids, $env{$name}); 1 } or fail($@);
    }
    if (@links) {
        load_veth();
        socket(my $netlink, AF_NETLINK, SOCK_RAW, 0) or fail("netlink: $!");
        for (@links) {
            eval { veth($netlink, @$_); 1 } or fail("link $_->[1]:$_->[0] - $_->[3]:$_->[2]: $@");
        }
    }
    my %interfaces;
    for (@links) { push @{ $interfaces{$_->[1]} }, $_->[0]; push @{ $interfaces{$_->[3]} }, $_->[2]; }
    for my $name (@nodes) {
        eval {
            in_network($name, sub {
                link_up($_) for ('lo', @{ $interfaces{$name} || [] });
                for (@{ $sysctls{$name} }) {
                    my ($key, $value) = @$_;
                    (my $path = $key) =~ tr{./}{/.};
                    open(my $f, '>', "/proc/sys/$path") or die "sysctl $key: $!\n";
                    print $f "$value\n";
                    close($f) or die "sysctl $key=$value: $!\n";
                }
            });
            1;
        } or fail("node $name: $@");
    }
}

# In a forked child: every namespace of the node, then root with NET_ADMIN and NET_RAW only (no other capability,
# in the bounding set too, and no new privileges), the node's environment, in /root; becomes @command (found in the
# node's PATH) in a child of its own, whose exit status this process exits with.
sub as_learner {
    my ($name, @command) = @_;
    open(my $pid_file, '<', "$DIR/$name.pid") or die "no node $name in this lab\n";
    my $holder = <$pid_file>;
    chomp $holder;
    my @env = do { open(my $f, '<', "$DIR/$name.env") or die "$DIR/$name.env: $!\n"; map { chomp; $_ } <$f> };
    my %types = (ipc => CLONE_NEWIPC, uts => CLONE_NEWUTS, net => CLONE_NEWNET, pid => CLONE_NEWPID,
                 mnt => CLONE_NEWNS);
    # Opened now: the node's mounts, entered below, have no cgroup hierarchy.
    open(my $procs, '>', "$CGROUPS/node-$name/cgroup.procs") or die "cgroup of $name: $!\n";
    my %fds;
    for my $ns (keys %types) { open($fds{$ns}, '<', "/proc/$holder/ns/$ns") or die "node $name is gone: $!\n"; }
    for my $ns ('ipc', 'uts', 'net', 'pid', 'mnt') {
        syscall(SYS_SETNS, fileno($fds{$ns}), 0 + $types{$ns}) == 0 or die "entering $name ($ns): $!\n";
    }
    # The fork before joining the node's cgroup: a node at its process limit (a fork bomb) refuses forks, not joins,
    # so a new shell still starts there (and bash says what it cannot fork, while the platform tells the learner).
    defined(my $pid = fork()) or die "fork: $!\n";
    if ($pid) {
        waitpid($pid, 0);
        POSIX::_exit($? & 127 ? 128 + ($? & 127) : $? >> 8);
    }
    # "0": this process, whatever its pid in the node's namespace.
    syswrite($procs, "0\n") or die "joining the cgroup of $name: $!\n";
    close($procs);
    for my $cap (0 .. CAP_LAST) {
        next if $cap == CAP_NET_ADMIN || $cap == CAP_NET_RAW;
        # Past the kernel's last capability the drop fails with EINVAL: nothing left to drop.
        last if syscall(SYS_PRCTL, 0 + PR_CAPBSET_DROP, 0 + $cap, 0, 0, 0) != 0 && $!{EINVAL};
    }
    syscall(SYS_PRCTL, 0 + PR_CAP_AMBIENT, 0 + PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    my $header = pack('LL', 0x20080522, 0);    # _LINUX_CAPABILITY_VERSION_3, this process
    my $caps = "\0" x 24;
    syscall(SYS_CAPGET, $header, $caps) == 0 or die "capget: $!\n";
    my @set = unpack('L6', $caps);
    @set[2, 5] = (0, 0);    # no inheritable capability
    syscall(SYS_CAPSET, $header, pack('L6', @set)) == 0 or die "capset: $!\n";
    syscall(SYS_PRCTL, 0 + PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 or die "no_new_privs: $!\n";
    # The kernel's out-of-memory killer may pick the learner's processes (the agent and init are never picked).
    open(my $oom, '>', '/proc/self/oom_score_adj') or die "oom_score_adj: $!\n";
    print $oom "0\n";
    close($oom) or die "oom_score_adj: $!\n";
    chdir('/root') or die "/root: $!\n";
    # GLIBC_TUNABLES, when the kernel was given it (kernel.pl: a host where its processes must not use AVX), stays.
    %ENV = (HOME => '/root', PATH => $PATH, TERM => 'xterm-256color', LANG => 'C.UTF-8',
        map { $_ => $ENV{$_} } grep { exists $ENV{$_} } 'GLIBC_TUNABLES');
    for (@env) { $ENV{$1} = $2 if /^([^=]+)=(.*)$/s; }
    # The agent ignores SIGPIPE, and an ignored signal stays ignored across exec: the learner's programs get the
    # default (`yes | head` ends quietly).
    $SIG{PIPE} = 'DEFAULT';
    { no warnings 'exec'; exec { $command[0] } @command; }
    die "cannot run $command[0]: $!\n";
}

sub setup {
    my @spec = @_;
    my (@order, %running);
    while (@spec) {
        my ($node, $script) = splice(@spec, 0, 2);
        fail('not understood: ' . join(' ', grep { defined } $node, $script))
            unless defined $script && $node =~ /^node=(.+)$/s && $script =~ /^script=(.*)$/s;
        ($node, $script) = ($node =~ /^node=(.+)$/s, $script =~ /^script=(.*)$/s);
        pipe(my $out_r, my $out_w) or fail("pipe: $!");
        defined(my $pid = fork()) or fail("fork: $!");
        if ($pid == 0) {
            close($out_r);
            open(STDIN, '<', '/dev/null');
            open(STDOUT, '>&', $out_w);
            open(STDERR, '>&', $out_w);
            eval { as_learner($node, '/bin/sh', '-c', $script); };
            print STDERR $@;
            POSIX::_exit(1);
        }
        close($out_w);
        push @order, $node;
        $running{$node} = [$pid, $out_r];
    }
    my $failed = 0;
    for my $node (@order) {
        my ($pid, $out) = @{ $running{$node} };
        # At most 64 KiB of a node's output: a setup that prints more is cut, never read into memory whole.
        my $text = '';
        while (sysread($out, my $chunk, 65536)) { $text .= $chunk if length($text) < 65536; }
        waitpid($pid, 0);
        next if $? == 0 || $failed++;
        print STDERR "node $node: ", substr($text, 0, 65536);
    }
    exit($failed ? 1 : 0);
}

# How many processes node $name runs and may run ("max" when unlimited), from its cgroup: read by the kernel's root
# namespaces, never by a process in the node, which at its limit could not fork.
sub pids {
    my ($name) = @_;
    my @values;
    for my $file ('pids.current', 'pids.max') {
        open(my $f, '<', "$CGROUPS/node-$name/$file") or fail("no node $name in this lab: $!");
        my $value = <$f> // '';
        chomp $value;
        push @values, $value;
    }
    print "@values\n";
}

my $mode = shift @ARGV // '';
if ($mode eq 'wire' && @ARGV >= 4 && "@ARGV[0 .. 3]" =~ /^\d+ \d+ \d+ \d+$/) { wire(@ARGV); exit 0; }
elsif ($mode eq 'setup') { setup(@ARGV); }
elsif ($mode eq 'enter' && @ARGV >= 2) { eval { as_learner(@ARGV); }; fail($@); }
elsif ($mode eq 'pids' && @ARGV == 1) { pids(@ARGV); exit 0; }
fail("usage: wire TMP HOME RUN PIDS SPEC... | setup node=NAME script=SCRIPT... | enter NAME COMMAND... | pids NAME");
