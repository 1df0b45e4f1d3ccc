package dev.tclab.workshop;

import io.nayuki.qrcodegen.QrCode;

/** A QR code as a standalone SVG (one path, a quiet zone of four modules), made on the server: no CDN, no script. */
public final class QrSvg {

    private QrSvg() {}

    public static String of(String text) {
        QrCode qr = QrCode.encodeText(text, QrCode.Ecc.MEDIUM);
        int border = 4;
        int size = qr.size + border * 2;
        StringBuilder path = new StringBuilder();
        for (int y = 0; y < qr.size; y++) {
            for (int x = 0; x < qr.size; x++) {
                if (qr.getModule(x, y)) {
                    path.append('M')
                            .append(x + border)
                            .append(',')
                            .append(y + border)
                            .append("h1v1h-1z");
                }
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + size + " " + size
                + "\" shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"QR code of the join link\">"
                + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><path d=\"" + path + "\" fill=\"#000\"/></svg>";
    }
}
