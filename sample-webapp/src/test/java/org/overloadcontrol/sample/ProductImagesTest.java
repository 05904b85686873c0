package org.overloadcontrol.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ProductImagesTest {

  private static Catalogue catalogue;
  private static ProductImages images;

  @BeforeAll
  static void draw() {
    catalogue = Catalogue.standard();
    images = ProductImages.draw(catalogue.products(), catalogue.categories());
  }

  @Test
  void everyProductHasAJpegOfAboutTenKilobytes() throws Exception {
    for (Product p : catalogue.products()) {
      byte[] jpeg = images.jpeg(p.id()).orElseThrow();
      assertThat(jpeg.length).as("bytes of image %d", p.id()).isBetween(7_000, 15_000);
      assertThat(jpeg[0] & 0xff).isEqualTo(0xFF);
      assertThat(jpeg[1] & 0xff).isEqualTo(0xD8); // JPEG start-of-image marker
      BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(jpeg));
      assertThat(decoded.getWidth()).isEqualTo(ProductImages.WIDTH);
      assertThat(decoded.getHeight()).isEqualTo(ProductImages.HEIGHT);
    }
  }

  @Test
  void theSameProductAlwaysGetsTheSameBytesAndProductsDiffer() {
    ProductImages again = ProductImages.draw(catalogue.products(), catalogue.categories());
    assertThat(again.jpeg(7).orElseThrow()).isEqualTo(images.jpeg(7).orElseThrow());
    assertThat(images.jpeg(7).orElseThrow()).isNotEqualTo(images.jpeg(8).orElseThrow());
  }

  @Test
  void unknownProductsHaveNoImage() {
    assertThat(images.jpeg(0)).isEmpty();
    assertThat(images.jpeg(31)).isEmpty();
  }
}
