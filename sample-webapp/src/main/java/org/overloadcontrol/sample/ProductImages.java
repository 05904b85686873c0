package org.overloadcontrol.sample;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/**
 * The product pictures: one small JPEG per product, drawn once at start-up with
 * {@code javax.imageio} and kept in memory. Each is a coloured tile (hue by category), a grain
 * of seeded noise so the JPEG has real content to encode, and the product's name; about 10 KB,
 * so that image traffic is real bytes on the wire for bandwidth shaping (Li &amp; Jamin).
 *
 * <p>The same product always gets the same bytes. Where the JVM has no fonts (some slim
 * container images), the tile is drawn without its caption rather than failing the start.
 */
public final class ProductImages {

  static final int WIDTH = 240;
  static final int HEIGHT = 180;
  static final float JPEG_QUALITY = 0.8f;

  private final Map<Integer, byte[]> jpegById;

  private ProductImages(Map<Integer, byte[]> jpegById) {
    this.jpegById = Collections.unmodifiableMap(jpegById);
  }

  /** Draws and encodes one image per product. */
  public static ProductImages draw(List<Product> products, List<String> categories) {
    Map<Integer, byte[]> images = new HashMap<>();
    for (Product p : products) {
      int categoryIndex = Math.max(0, categories.indexOf(p.category()));
      float hue = categoryIndex / (float) Math.max(1, categories.size());
      images.put(p.id(), encode(render(p, hue)));
    }
    return new ProductImages(images);
  }

  /** The JPEG of product {@code id}; the array is shared, do not modify it. */
  public Optional<byte[]> jpeg(int id) {
    return Optional.ofNullable(jpegById.get(id));
  }

  static BufferedImage render(Product product, float hue) {
    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    SplittableRandom random = new SplittableRandom(product.id());
    float shade = 0.55f + 0.05f * (product.id() % 6);
    for (int y = 0; y < HEIGHT; y++) {
      for (int x = 0; x < WIDTH; x++) {
        // A diagonal gradient plus grain: enough detail that the JPEG is not a few hundred bytes.
        float brightness =
            shade
                + 0.25f * (x + y) / (WIDTH + HEIGHT)
                + (float) (random.nextDouble() - 0.5) * 0.17f;
        int rgb = Color.HSBtoRGB(hue, 0.45f, Math.min(1f, Math.max(0f, brightness)));
        image.setRGB(x, y, rgb);
      }
    }
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(new Color(0, 0, 0, 140));
      g.fillRect(0, HEIGHT - 34, WIDTH, 34);
      g.setColor(Color.WHITE);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
      g.drawString(product.name(), 10, HEIGHT - 12);
    } catch (RuntimeException | LinkageError e) {
      // No usable fonts in this JVM: keep the tile without its caption.
    } finally {
      g.dispose();
    }
    return image;
  }

  static byte[] encode(BufferedImage image) {
    Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("jpeg");
    if (!writers.hasNext()) {
      throw new IllegalStateException("this JVM has no JPEG encoder");
    }
    ImageWriter writer = writers.next();
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    try (ImageOutputStream stream = ImageIO.createImageOutputStream(out)) {
      ImageWriteParam param = writer.getDefaultWriteParam();
      param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
      param.setCompressionQuality(JPEG_QUALITY);
      writer.setOutput(stream);
      writer.write(null, new IIOImage(image, null, null), param);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writer.dispose();
    }
    return out.toByteArray();
  }
}
