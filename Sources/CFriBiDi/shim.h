#include <fribidi.h>
#include <stdlib.h>

/* The Unicode bidi algorithm for one paragraph of UTF-32 text, in one call so that Swift
 * sees neither FriBiDi's macros nor its type arrays. `rtl_base` is in-out: pass -1 to let
 * the first strong character decide (rule P2/P3), 0 for left-to-right, 1 for right-to-left;
 * it returns the resolved base direction (0/1). Writes one embedding level per character
 * into `levels`. Returns 0 on failure (out of memory, bad length), 1 on success. */
static inline int mapsnap_fribidi_levels(const uint32_t *text, int length, int *rtl_base, FriBidiLevel *levels) {
    if (length <= 0) { *rtl_base = *rtl_base == 1 ? 1 : 0; return 1; }
    FriBidiCharType *types = malloc(sizeof(FriBidiCharType) * (size_t)length);
    FriBidiBracketType *brackets = malloc(sizeof(FriBidiBracketType) * (size_t)length);
    if (!types || !brackets) { free(types); free(brackets); return 0; }
    fribidi_get_bidi_types(text, length, types);
    fribidi_get_bracket_types(text, length, types, brackets);
    FriBidiParType base = *rtl_base < 0 ? FRIBIDI_PAR_ON : (*rtl_base ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR);
    FriBidiLevel max = fribidi_get_par_embedding_levels_ex(types, brackets, length, &base, levels);
    free(types);
    free(brackets);
    if (max == 0) return 0;
    *rtl_base = FRIBIDI_IS_RTL(base) ? 1 : 0;
    return 1;
}

/* FriBiDi's version string, e.g. "1.0.8". */
static inline const char *mapsnap_fribidi_version(void) { return FRIBIDI_VERSION; }
