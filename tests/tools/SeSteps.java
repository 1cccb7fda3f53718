/* SeSteps.java - the oracle's step list: drives Sudoku Explainer 1.2.1.3's
 * own classes through Solver.getDifficulty's loop (its producer lists, in
 * order, with a SingleHintAccumulator) and prints each step as it is
 * taken: number, SE name, rating, placed cell (-1: none), digit and the
 * candidates it removes (CELL:DIGITS,...; "-" for none). SE's
 * serate only prints the totals, and on the forum's hardest puzzles takes
 * longer than the time at hand; a prefix of steps still checks ours
 * (build/serate_tool -v prints the same columns). Build and run against
 * SE's classes (docs/rating.md):
 *   javac -cp SE/OUT -d DIR tests/tools/SeSteps.java
 *   java -cp SE/OUT:DIR SeSteps PUZZLE [STEP]   (STEP: dump candidates) */
import diuf.sudoku.*;
import diuf.sudoku.solver.*;
import java.util.*;

public class SeSteps {
    /* The candidates the hint takes away that the grid still has, as
     * CELL:DIGITS by cell (0-80, row-major), comma-separated; "-" for
     * none (a direct hint only places). */
    static String removals(Hint hint) {
        if (!(hint instanceof IndirectHint))
            return "-";
        Map<Cell, BitSet> rem = ((IndirectHint)hint).getRemovablePotentials();
        TreeMap<Integer, String> byCell = new TreeMap<>();
        for (Map.Entry<Cell, BitSet> e : rem.entrySet()) {
            Cell cell = e.getKey();
            String d = "";
            for (int v = 1; v <= 9; v++)
                if (e.getValue().get(v) && cell.hasPotentialValue(v))
                    d += v;
            if (!d.isEmpty())
                byCell.put(cell.getY() * 9 + cell.getX(), d);
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Integer, String> e : byCell.entrySet())
            sb.append(sb.length() > 0 ? "," : "").append(e.getKey()).append(':')
                .append(e.getValue());
        return sb.length() > 0 ? sb.toString() : "-";
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] a) throws Exception {
        Grid grid = new Grid();
        String puzzle = a[0];
        for (int i = 0; i < 81; i++) {
            char ch = puzzle.charAt(i);
            if (ch >= '1' && ch <= '9')
                grid.setCellValue(i % 9, i / 9, ch - '0');
        }
        Solver solver = new Solver(grid);
        solver.rebuildPotentialValues();
        String[] names = {"directHintProducers", "indirectHintProducers",
            "chainingHintProducers", "chainingHintProducers2",
            "advancedHintProducers", "experimentalHintProducers"};
        List<List<HintProducer>> lists = new ArrayList<>();
        for (String n : names) {
            java.lang.reflect.Field f = Solver.class.getDeclaredField(n);
            f.setAccessible(true);
            lists.add((List<HintProducer>)f.get(solver));
        }
        int step = 0;
        for (;;) {
            boolean solved = true;
            for (int y = 0; y < 9; y++)
                for (int x = 0; x < 9; x++)
                    if (grid.getCellValue(x, y) == 0)
                        solved = false;
            if (solved)
                break;
            SingleHintAccumulator accu = new SingleHintAccumulator();
            try {
                for (List<HintProducer> l : lists)
                    for (HintProducer p : l)
                        p.getHints(grid, accu);
            } catch (InterruptedException e) {
            }
            Hint hint = accu.getHint();
            if (a.length > 1 && step + 1 == Integer.parseInt(a[1])) {
                StringBuilder sb = new StringBuilder();
                for (int y = 0; y < 9; y++) {
                    for (int x = 0; x < 9; x++) {
                        Cell c = grid.getCell(x, y);
                        String s = "";
                        if (c.getValue() != 0)
                            s = "=" + c.getValue();
                        else
                            for (int v = 1; v <= 9; v++)
                                if (c.hasPotentialValue(v))
                                    s += v;
                        sb.append(String.format("%-10s", s));
                    }
                    sb.append("\n");
                }
                System.out.print(sb);
            }
            if (hint == null) {
                System.out.println("stuck");
                break;
            }
            step++;
            Cell c = hint.getCell();
            System.out.println(String.format("%3d %-44s %.1f %d %d %s | %s", step,
                ((Rule)hint).getName(), ((Rule)hint).getDifficulty(),
                c == null ? -1 : c.getY() * 9 + c.getX(),
                c == null ? 0 : hint.getValue(), removals(hint),
                hint.toString()));
            System.out.flush();
            hint.apply();
        }
    }
}
