package org.overloadcontrol.it.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG plots of the experiments, drawn with XChart (headless). */
public final class Charts {

  static {
    System.setProperty("java.awt.headless", "true");
  }

  /** One line: x and y values of equal length (NaN y values are left out). */
  public record Line(String name, List<Double> x, List<Double> y) {}

  private Charts() {}

  /** A line chart; {@code logY} for quantities spanning decades (response times). */
  public static void lines(
      Path file, String title, String xLabel, String yLabel, List<Line> lines, boolean logY)
      throws IOException {
    XYChart chart =
        new XYChartBuilder()
            .width(900)
            .height(420)
            .title(title)
            .xAxisTitle(xLabel)
            .yAxisTitle(yLabel)
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setYAxisLogarithmic(logY);
    chart.getStyler().setMarkerSize(4);
    for (Line l : lines) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (int i = 0; i < l.x().size(); i++) {
        double y = l.y().get(i);
        if (!Double.isNaN(y) && (!logY || y > 0)) {
          xs.add(l.x().get(i));
          ys.add(y);
        }
      }
      if (xs.isEmpty()) {
        continue;
      }
      XYSeries s = chart.addSeries(l.name(), xs, ys);
      s.setMarker(SeriesMarkers.CIRCLE);
    }
    save(chart, file);
  }

  /** A grouped bar chart: one group of bars per category, one bar per series. */
  public static void bars(
      Path file,
      String title,
      String yLabel,
      List<String> categories,
      Map<String, List<Double>> series)
      throws IOException {
    CategoryChart chart =
        new CategoryChartBuilder().width(900).height(420).title(title).yAxisTitle(yLabel).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setLabelsVisible(true);
    for (Map.Entry<String, List<Double>> e : new LinkedHashMap<>(series).entrySet()) {
      chart.addSeries(e.getKey(), categories, e.getValue());
    }
    save(chart, file);
  }

  private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path file)
      throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    // XChart 4 deprecates its single-chart saveBitmap; the image itself is not.
    javax.imageio.ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", file.toFile());
  }
}
