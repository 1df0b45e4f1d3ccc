#!/bin/sh
# The first process of a UML lab's kernel (UmlLabRuntime). Its standard input and output are the kernel's console,
# which is the container's standard input and output: the app's line to the agent, so nothing else may write there.
# The root filesystem is the lab image, read-only through hostfs; what the kernel needs to write is a tmpfs of its own
# (charged to its memory, mem= on the kernel command line).
# The kernel starts init with no PATH, and programs the agent runs without a shell (nsenter running sysctl, say)
# would search only /bin and /usr/bin.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc -o nosuid,nodev,noexec proc /proc
mount -t sysfs -o nosuid,nodev,noexec sysfs /sys
# A hostfs /run breaks `ip netns` (it bind-mounts namespace files there).
mount -t tmpfs -o nosuid,nodev,mode=755,size=16m tmpfs /run
mount -t tmpfs -o nosuid,nodev,mode=1777,size=16m tmpfs /tmp
[ -c /dev/null ] || mount -t devtmpfs -o nosuid devtmpfs /dev
mkdir -p /dev/pts && mount -t devpts -o nosuid,noexec,ptmxmode=0666,mode=620 devpts /dev/pts
# Only emergencies reach the console: a kernel warning there (tc prints some) would break the agent's framing.
echo 1 >/proc/sys/kernel/printk
stty raw -echo
echo -1000 >/proc/self/oom_score_adj
# The agent serves the app; this process reaps whatever is left to it (servers a measurement started) and, once the
# agent is gone, powers the kernel off so that the container ends (an init that exits panics the kernel, and the
# container would stay up doing nothing).
exec perl -e '
    my $agent = fork();
    if (defined $agent && $agent == 0) {
        open(STDERR, ">", "/dev/null");
        exec("perl", "/tclab/agent.pl") or exit(127);
    }
    while (1) {
        my $pid = wait();
        last if $pid == $agent || $pid < 0;
    }
    # reboot(2) with LINUX_REBOOT_CMD_POWER_OFF; 169 is its number on x86-64, the only architecture UML runs here.
    syscall(169, 0xfee1dead, 672274793, 0x4321fedc);
'
