//! Windows over a text: runs of whole segments (the text between two cuts of the feature
//! pass) at least `WINDOW` bytes long, one starting at each cut, so an instruction planted in
//! a long document is scored with a few hundred bytes around it rather than with the whole
//! document.

/// The shortest window, in bytes of the normalised text.
pub(crate) const WINDOW: usize = 256;

/// The windows over `bounds` (byte offsets of the segment boundaries, from 0 to the text's
/// length, increasing), as pairs of indexes into `bounds`. A text shorter than two windows
/// has none: its whole is its only window.
pub(crate) fn each(bounds: &[usize], mut window: impl FnMut(usize, usize)) {
    let Some(&len) = bounds.last() else { return };
    if len < 2 * WINDOW {
        return;
    }
    let mut k = 0;
    for j in 0..bounds.len() - 1 {
        while k < bounds.len() - 1 && bounds[k] - bounds[j] < WINDOW {
            k += 1;
        }
        if bounds[k] - bounds[j] < WINDOW {
            // Short of a window before the end: the window ending there started earlier.
            break;
        }
        window(j, k);
    }
}

#[cfg(test)]
mod tests {
    use super::{each, WINDOW};

    fn all(bounds: &[usize]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        each(bounds, |a, b| out.push((a, b)));
        out
    }

    #[test]
    fn short_texts_have_no_windows() {
        assert!(all(&[0, 100, 2 * WINDOW - 1]).is_empty());
        assert!(all(&[]).is_empty());
    }

    #[test]
    fn windows_are_whole_segments_at_least_a_window_long() {
        let bounds = [0, 100, 200, 300, 400, 500, 600];
        let w = all(&bounds);
        assert_eq!(w, vec![(0, 3), (1, 4), (2, 5), (3, 6)]);
        assert!(w.iter().all(|&(a, b)| bounds[b] - bounds[a] >= WINDOW));
        // One segment longer than a window is a window of its own.
        assert_eq!(all(&[0, 10, 700]), vec![(0, 2), (1, 2)]);
    }
}
