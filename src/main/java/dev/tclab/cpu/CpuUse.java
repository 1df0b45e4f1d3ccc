package dev.tclab.cpu;

/**
 * The host's CPU in use over the last few seconds, in cores: what the labs used, what the platform's own processes
 * used (this app and the engine's daemons, which serve the labs), and what the rest of the host used.
 *
 * @param hostCores     the host's CPUs
 * @param busyCores     all the host's CPUs were busy with
 * @param labCores      this instance's lab containers
 * @param platformCores this app and the container engine's processes
 */
public record CpuUse(int hostCores, double busyCores, double labCores, double platformCores) {

    /**
     * Other work below this is the platform's too, and is not counted: the kernel threads that move the labs' packets
     * and the short-lived processes of each exec (runc) run outside every group and process read here. While 30
     * learners checked a UML lesson at once on 2 cores, what was left measured 0.05 core at the median, 0.18 at p90
     * and up to 0.86 in one 2-second reading; counting it cost the class 6 s at the p95 (docs/BENCHMARKS.md).
     */
    static final double NOISE_CORES = 0.5;

    /** What is assumed while the host's CPU cannot be read: no other work, so the slots admit by cost alone. */
    static final CpuUse UNREAD = new CpuUse(1, 0, 0, 0);

    /**
     * Cores busy with work that is neither a lab's nor the platform's: another program on the host, another app's
     * labs. The labs' own CPU weights do not hold it back, so it takes CPU from measuring labs.
     */
    public double otherCores() {
        return Math.max(0, busyCores - labCores - platformCores);
    }

    /** The share of the host's CPUs that other work leaves to the labs, from 0 to 1 (all while it is noise). */
    public double leftToLabs() {
        double other = otherCores() < NOISE_CORES ? 0 : otherCores();
        return Math.max(0, Math.min(1, (hostCores - other) / hostCores));
    }
}
