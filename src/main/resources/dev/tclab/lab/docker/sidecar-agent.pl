# The measurement sidecar's main process: runs the platform's commands in the sidecar without a Docker exec each.
# An exec costs the engine 50-80 ms of CPU (runc), and a class pressing Check together made 90 of them at once on
# 2 cores; a fork here costs about a millisecond. The app attaches to this process's standard input and output
# (SidecarAgent.java); only the platform can: the learner's node shares the network namespace, not the processes.
#
# Requests, one per line on standard input (hex keeps any byte of an argument out of the framing):
#   R <id> <hex of the argv, arguments separated by NUL>    run a command (the app wraps it in timeout(1))
#   K <id>                                                  kill that command's processes (the app's deadline)
# Each command's answer, written whole once it has exited and closed its output:
#   @@tclab-agent <id> <exit code> <1 if output was cut, else 0> <stdout bytes> <stderr bytes>\n<stdout><stderr>
# The first MAX bytes of each stream are kept and the rest is read away, so a command is never blocked on its output.
# Nothing here ever exits on its own accord: with this process gone, the sidecar and its node could not be graded.
use strict;
use warnings;
use POSIX ();

my $MAX = 1 << 20;
$SIG{PIPE} = 'IGNORE';
binmode STDOUT;
my %running;    # pid => { id, out, err, cut, open => { fileno => [handle, which] } }
my %pid_of;     # request id => pid
my $pending = '';
my $stdin_open = 1;

sub start {
    my ($id, @argv) = @_;
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

sub answer_now {
    my ($id, $code, $out, $err) = @_;
    answer($id, $code, 0, $out, $err);
}

sub answer {
    my ($id, $code, $cut, $out, $err) = @_;
    my $frame = "\@\@tclab-agent $id $code $cut " . length($out) . ' ' . length($err) . "\n" . $out . $err;
    while (length $frame) {
        my $n = syswrite(STDOUT, $frame);
        last unless defined $n;    # the app is gone; a new attach asks again
        substr($frame, 0, $n) = '';
    }
}

sub request {
    my ($line) = @_;
    if ($line =~ /^R ([0-9a-f-]{1,64}) ((?:[0-9a-f]{2})+)$/) {
        start($1, split(/\0/, pack('H*', $2), -1));
    } elsif ($line =~ /^K ([0-9a-f-]{1,64})$/) {
        kill_request($1);
    }
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

while (1) {
    my $wanted = '';
    vec($wanted, fileno(STDIN), 1) = 1 if $stdin_open;
    for my $r (values %running) {
        vec($wanted, $_, 1) = 1 for keys %{ $r->{open} };
    }
    if ($wanted !~ /[^\0]/) {
        sleep 3600;    # standard input closed and nothing runs: wait to be stopped
        next;
    }
    my $ready = select(my $got = $wanted, undef, undef, undef);
    next if $ready < 0;
    if ($stdin_open && vec($got, fileno(STDIN), 1)) {
        my $n = sysread(STDIN, my $chunk, 65536);
        if (!$n) {
            $stdin_open = 0;
        } else {
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
}
