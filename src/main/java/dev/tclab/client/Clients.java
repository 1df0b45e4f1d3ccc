package dev.tclab.client;

import io.netty.util.NetUtil;
import java.util.Arrays;

/** The client an address belongs to, for every per-address limit (lab starts, join codes, host sign-in). */
public final class Clients {

    private Clients() {}

    /**
     * The address itself, or its /64 network for IPv6, as one host or home holds a whole /64. Never a name lookup:
     * what is not an IP literal (a forwarded header may say anything) is its own client, as written.
     */
    public static String of(String address) {
        if (address == null || address.isBlank()) {
            return "unknown";
        }
        byte[] ip = NetUtil.createByteArrayFromIpAddressString(address);
        if (ip == null) {
            return address;
        }
        if (ip.length == 16 && ipv4Mapped(ip)) {
            return NetUtil.bytesToIpAddress(Arrays.copyOfRange(ip, 12, 16));
        }
        if (ip.length == 16) {
            Arrays.fill(ip, 8, 16, (byte) 0);
            return NetUtil.bytesToIpAddress(ip) + "/64";
        }
        return NetUtil.bytesToIpAddress(ip);
    }

    /** {@code ::ffff:a.b.c.d}: an IPv4 client as a dual-stack socket sees it. */
    private static boolean ipv4Mapped(byte[] ip) {
        for (int i = 0; i < 10; i++) {
            if (ip[i] != 0) {
                return false;
            }
        }
        return ip[10] == (byte) 0xff && ip[11] == (byte) 0xff;
    }
}
