# The measurement sidecar's main process: runs the platform's commands in the sidecar without a Docker exec each.
# An exec costs the engine 50-80 ms of CPU (runc), and a class pressing Check together made 90 of them at once on
# 2 cores; a fork here costs about a millisecond. The app attaches to this process's standard input and output
# (SidecarAgent.java); only the platform can: the learner's node shares the network namespace, not the processes.
#
# The User-Mode Linux runtime runs the same program in its kernel's root namespace (UmlAgent.java), where it also
# streams long-running processes (samplers, terminals) over the same standard input and output.
#
# Requests, one per line on standard input (hex keeps any byte of an argument out of the framing):
#   R <id> <hex of the argv, arguments separated by NUL>    run a command (the app wraps it in timeout(1))
#   E <id> <hex of the perl source, then its arguments>     run perl source in a fork of this process (no program
#                                                           started: under UML's ptrace a new perl costs 0.1-0.5 s)
#   K <id>                                                  kill that command's processes (the app's deadline)
#   S <id> <hex argv>                                       start a streamed process (stdout and stderr together)
#   T <id> <columns> <rows> <hex argv>                      start a streamed process on a pseudo-terminal
#   U <id> <columns> <rows> <hex of perl source, arguments>  the same, running perl source in the fork (as E does)
#   I <id> <hex bytes>                                      input for a streamed process
#   Z <id> <columns> <rows>                                 resize a streamed process's terminal
#   C <id>                                                  end a streamed process (its process group)
#   P                                                       say ready (the app asks once it attached)
# Every read of standard input is acknowledged with @@tclab-ack <bytes>: a UML console (a terminal) hangs once more
# than its 4 KiB input buffer arrives at once, so the app there keeps less than that unacknowledged.
# Each command's answer, written whole once it has exited and closed its output:
#   @@tclab-agent <id> <exit code> <1 if output was cut, else 0> <stdout bytes> <stderr bytes>\n<stdout><stderr>
# The first MAX bytes of each stream are kept and the rest is read away, so a command is never blocked on its output.
# A streamed process's output as it comes, and its end once its output closed and it exited (-1: ended by C):
#   @@tclab-out <id> <bytes>\n<output>        @@tclab-end <id> <exit code>\n
# Input a streamed process does not read is kept up to MAX bytes, then dropped: the agent never blocks on it.
# Nothing here ever exits on its own accord: with this process gone, the sidecar and its node could not be graded.
use strict;
use warnings;
use POSIX ();
# Linux's terminal ioctls (the same numbers on x86-64 and arm64): no pty module is needed.
use constant { TIOCSPTLCK => 0x40045431, TIOCGPTN => 0x80045430, TIOCSCTTY => 0x540E, TIOCSWINSZ => 0x5414 };

my $MAX = 1 << 20;
$SIG{PIPE} = 'IGNORE';
binmode STDOUT;
my %running;    # pid => { id, out, err, cut, open => { fileno => [handle, which] } }
my %pid_of;     # request id => pid
my %streams;    # request id => { pid, out (handle), in (handle), pending (input), code, ended }
my $pending = '';
my $stdin_open = 1;

sub start {
    my ($id, $perl, @argv) = @_;
    pipe(my $out_r, my $out_w) or return answer_now($id, 127, "", "pipe: $!");
    pipe(my $err_r, my $err_w) or return answer_now($id, 127, "", "pipe: $!");
    my $pid = fork();
    return answer_now($id, 127, "", "fork: $!") unless defined $pid;
    if ($pid == 0) {
        POSIX::setpgid(0, 0);
        $ENV{TCLAB_EXEC} = $id;
        open(STDIN, '<', '/dev/null');
        open(STDOUT, '>&', $out_w);
        open(STDERR, '>&', $err_w);
        close($_) for ($out_r, $err_r, $out_w, $err_w);
        run_perl(@argv) if $perl;
        { no warnings 'exec'; exec { $argv[0] } @argv; }
        print STDERR "cannot run $argv[0]: $!\n";
        POSIX::_exit(127);
    }
    close($out_w);
    close($err_w);
    $running{$pid} = { id => $id, out => '', err => '', cut => 0,
                       open => { fileno($out_r) => [$out_r, 'out'], fileno($err_r) => [$err_r, 'err'] } };
    $pid_of{$id} = $pid;
}

# In the fork of an E request: none of the agent's other descriptors (a process the source leaves running would hold
# them open), then the source with the rest as its @ARGV; it ends the fork, by exit or by coming to its end.
sub run_perl {
    my ($source, @args) = @_;
    opendir(my $fds, '/proc/self/fd') or POSIX::_exit(127);
    my @inherited = grep { /^\d+$/ && $_ > 2 && $_ != fileno($fds) } readdir($fds);
    closedir($fds);
    POSIX::close($_) for @inherited;
    $| = 1;    # POSIX::_exit does not flush
    @ARGV = @args;
    eval $source;
    print STDERR $@ if $@;
    POSIX::_exit($@ ? 1 : 0);
}

sub answer_now {
    my ($id, $code, $out, $err) = @_;
    answer($id, $code, 0, $out, $err);
}

sub answer {
    my ($id, $code, $cut, $out, $err) = @_;
    write_all("\@\@tclab-agent $id $code $cut " . length($out) . ' ' . length($err) . "\n" . $out . $err);
}

sub request {
    my ($line) = @_;
    if ($line =~ /^R ([0-9a-f-]{1,64}) ((?:[0-9a-f]{2})+)$/) {
        start($1, 0, split(/\0/, pack('H*', $2), -1));
    } elsif ($line =~ /^E ([0-9a-f-]{1,64}) ((?:[0-9a-f]{2})+)$/) {
        start($1, 1, split(/\0/, pack('H*', $2), -1));
    } elsif ($line =~ /^K ([0-9a-f-]{1,64})$/) {
        kill_request($1);
    } elsif ($line =~ /^S ([0-9a-f-]{1,64}) ((?:[0-9a-f]{2})+)$/) {
        start_stream($1, undef, 0, split(/\0/, pack('H*', $2), -1));
    } elsif ($line =~ /^([TU]) ([0-9a-f-]{1,64}) (\d{1,4}) (\d{1,4}) ((?:[0-9a-f]{2})+)$/) {
        start_stream($2, [$3, $4], $1 eq 'U', split(/\0/, pack('H*', $5), -1));
    } elsif ($line =~ /^I ([0-9a-f-]{1,64}) ((?:[0-9a-f]{2})+)$/) {
        my $s = $streams{$1};
        $s->{pending} .= pack('H*', $2) if $s && $s->{in} && length($s->{pending}) < $MAX;
    } elsif ($line =~ /^Z ([0-9a-f-]{1,64}) (\d{1,4}) (\d{1,4})$/) {
        my $s = $streams{$1};
        ioctl($s->{out}, TIOCSWINSZ, pack('S4', $3, $2, 0, 0)) if $s && $s->{tty} && $s->{out};
    } elsif ($line =~ /^C ([0-9a-f-]{1,64})$/) {
        close_stream($1);
    } elsif ($line eq 'P') {
        ready();
    }
}

sub ready {
    write_all("\@\@tclab-ready\n");
}

sub write_all {
    my ($frame) = @_;
    while (length $frame) {
        my $n = syswrite(STDOUT, $frame);
        last unless defined $n;    # the app is gone; a new attach asks again
        substr($frame, 0, $n) = '';
    }
}

# A new pseudo-terminal: the master's handle and the slave's path.
sub open_pty {
    sysopen(my $master, '/dev/ptmx', POSIX::O_RDWR() | POSIX::O_NOCTTY()) or return;
    my $unlock = pack('i', 0);
    ioctl($master, TIOCSPTLCK, $unlock) or return;
    my $number = pack('i', 0);
    ioctl($master, TIOCGPTN, $number) or return;
    return ($master, '/dev/pts/' . unpack('i', $number));
}

sub start_stream {
    my ($id, $size, $perl, @argv) = @_;
    return if $streams{$id};
    my ($out, $in, $child_in, $child_out, $slave);
    if ($size) {
        ($out, $slave) = open_pty() or return stream_failed($id, "no pseudo-terminal: $!");
        ioctl($out, TIOCSWINSZ, pack('S4', $size->[1], $size->[0], 0, 0));
        $in = $out;
    } else {
        pipe($child_in, $in) or return stream_failed($id, "pipe: $!");
        pipe($out, $child_out) or return stream_failed($id, "pipe: $!");
    }
    my $pid = fork();
    return stream_failed($id, "fork: $!") unless defined $pid;
    if ($pid == 0) {
        POSIX::setsid();
        $ENV{TCLAB_STREAM} = $id;
        if ($size) {
            close($out);
            sysopen(my $tty, $slave, POSIX::O_RDWR()) or POSIX::_exit(127);
            ioctl($tty, TIOCSCTTY, 0);
            open(STDIN, '<&', $tty);
            open(STDOUT, '>&', $tty);
            open(STDERR, '>&', $tty);
        } else {
            open(STDIN, '<&', $child_in);
            open(STDOUT, '>&', $child_out);
            open(STDERR, '>&', $child_out);
            close($_) for ($in, $out, $child_in, $child_out);
        }
        run_perl(@argv) if $perl;
        { no warnings 'exec'; exec { $argv[0] } @argv; }
        print STDERR "cannot run $argv[0]: $!\n";
        POSIX::_exit(127);
    }
    if (!$size) {
        close($child_in);
        close($child_out);
    }
    my $flags = fcntl($in, POSIX::F_GETFL(), 0);
    fcntl($in, POSIX::F_SETFL(), $flags | POSIX::O_NONBLOCK());
    $streams{$id} = { pid => $pid, out => $out, in => $in, tty => !!$size, pending => '' };
}

sub stream_failed {
    my ($id, $why) = @_;
    write_all("\@\@tclab-out $id " . length("$why\n") . "\n$why\n\@\@tclab-end $id 127\n");
}

sub close_stream {
    my ($id) = @_;
    my $s = $streams{$id} or return;
    kill('HUP', -$s->{pid});
    kill('KILL', -$s->{pid});
    kill('KILL', $s->{pid});
    $s->{code} = -1;
    end_stream_output($s);
    stream_done($id);
}

sub end_stream_output {
    my ($s) = @_;
    close($s->{out}) if $s->{out};
    close($s->{in}) if $s->{in} && !$s->{tty};
    $s->{out} = $s->{in} = undef;
}

# Once its output closed (a terminal's closes when its last process does), the stream ends with its exit status.
sub stream_done {
    my ($id) = @_;
    my $s = $streams{$id};
    return if $s->{out};
    if (!defined $s->{code}) {
        waitpid($s->{pid}, 0);
        my $status = $?;
        $s->{code} = $status & 127 ? 128 + ($status & 127) : $status >> 8;
    } else {
        waitpid($s->{pid}, POSIX::WNOHANG());
    }
    delete $streams{$id};
    write_all("\@\@tclab-end $id $s->{code}\n");
}

# Past the app's deadline: SIGKILL for every process of the request (its process group, and whatever left it but
# still carries its marker), then the answer with what it printed; its output is not waited for any more.
sub kill_request {
    my ($id) = @_;
    my $pid = $pid_of{$id};
    return unless defined $pid;
    kill('KILL', -$pid);
    for my $proc (glob('/proc/[0-9]*')) {
        open(my $env, '<', "$proc/environ") or next;
        local $/;
        my $vars = <$env> // '';
        close($env);
        kill('KILL', substr($proc, 6)) if index("\0$vars", "\0TCLAB_EXEC=$id\0") >= 0;
    }
    my $r = $running{$pid};
    close($_->[0]) for values %{ $r->{open} };
    $r->{open} = {};
    finish($pid);
}

sub finish {
    my ($pid) = @_;
    my $r = $running{$pid};
    return if %{ $r->{open} };
    waitpid($pid, 0);
    my $status = $?;
    my $code = $status & 127 ? 128 + ($status & 127) : $status >> 8;
    delete $running{$pid};
    delete $pid_of{ $r->{id} };
    answer($r->{id}, $code, $r->{cut}, $r->{out}, $r->{err});
}

ready();
while (1) {
    my ($wanted, $writable) = ('', '');
    vec($wanted, fileno(STDIN), 1) = 1 if $stdin_open;
    for my $r (values %running) {
        vec($wanted, $_, 1) = 1 for keys %{ $r->{open} };
    }
    for my $s (values %streams) {
        vec($wanted, fileno($s->{out}), 1) = 1 if $s->{out};
        vec($writable, fileno($s->{in}), 1) = 1 if $s->{in} && length $s->{pending};
    }
    if ($wanted !~ /[^\0]/ && $writable !~ /[^\0]/) {
        sleep 3600;    # standard input closed and nothing runs: wait to be stopped
        next;
    }
    my $ready = select(my $got = $wanted, my $can_write = $writable, undef, undef);
    next if $ready < 0;
    if ($stdin_open && vec($got, fileno(STDIN), 1)) {
        my $n = sysread(STDIN, my $chunk, 65536);
        if (!$n) {
            $stdin_open = 0;
        } else {
            write_all("\@\@tclab-ack $n\n");
            $pending .= $chunk;
            while ($pending =~ s/^([^\n]*)\n//) {
                request($1);
            }
            $pending = '' if length($pending) > 4 * $MAX;    # no request is that long
        }
    }
    for my $pid (keys %running) {
        my $r = $running{$pid};
        for my $fd (keys %{ $r->{open} }) {
            next unless vec($got, $fd, 1);
            my ($handle, $which) = @{ $r->{open}{$fd} };
            my $n = sysread($handle, my $chunk, 65536);
            if (!$n) {
                close($handle);
                delete $r->{open}{$fd};
                next;
            }
            my $room = $MAX - length($r->{$which});
            $r->{cut} = 1 if length($chunk) > $room;
            $r->{$which} .= substr($chunk, 0, $room > 0 ? $room : 0);
        }
        finish($pid);
    }
    for my $id (keys %streams) {
        my $s = $streams{$id};
        if ($s->{in} && length $s->{pending} && vec($can_write, fileno($s->{in}), 1)) {
            my $n = syswrite($s->{in}, $s->{pending});
            substr($s->{pending}, 0, $n) = '' if defined $n;
            $s->{pending} = '' if !defined $n && $! != POSIX::EAGAIN();
        }
        next unless $s->{out} && vec($got, fileno($s->{out}), 1);
        my $n = sysread($s->{out}, my $chunk, 65536);
        if ($n) {
            write_all("\@\@tclab-out $id $n\n$chunk");
        } else {
            end_stream_output($s);    # a terminal's master reads EIO once its last process closed the slave
            stream_done($id);
        }
    }
}
