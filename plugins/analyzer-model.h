/* SPDX-License-Identifier: Apache-2.0 */
/*
 * analyzer-model.h - what clang's static analyzer cannot see by itself.
 *
 * A plugin reports a failure with `return host->set_error(code, ...)`: the
 * core's set_error() returns the code it is given, which is never SBX_OK.
 * The analyzer sees only a call through a function pointer, so it assumes
 * the result may be 0 and follows "failed but returned SBX_OK" paths that
 * cannot happen (an out parameter "uninitialized", a NULL "dereferenced").
 * For the analyzer only (__clang_analyzer__ is defined by scan-build's
 * analysis pass, never by a compiler), a call's value is its code. The
 * compiled code is unchanged; every other finding stays.
 */
#ifndef SBX_ANALYZER_MODEL_H
#define SBX_ANALYZER_MODEL_H
#ifdef __clang_analyzer__
#define set_error(code, ...) set_error((code), __VA_ARGS__) ? (code) : (code)
#endif
#endif
