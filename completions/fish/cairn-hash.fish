function __cairn-hash_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-hash_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __cairn-hash_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __cairn-hash_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __cairn-hash_parse_tokens -S
    set -l unparsed_tokens (__cairn-hash_tokens -pc)
    switch $unparsed_tokens[1]
    case 'cairn-hash'
        __cairn-hash_parse_subcommand -r 1 '0/null' 'all-files' 'no-cache' 'j/jobs=' 'v/verbose' 'q/quiet' 'profile=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'accept-lost-mount'
            __cairn-hash_parse_subcommand 1 'v/verbose' 'q/quiet' 'profile=' 'y/yes' 'version' 'h/help'
        case 'forget-mounts'
            __cairn-hash_parse_subcommand -r 1 'v/verbose' 'q/quiet' 'profile=' '0/null' 'y/yes' 'version' 'h/help'
        case 'help'
            __cairn-hash_parse_subcommand -r 1 'version'
        end
    end
end

function __cairn-hash_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __cairn-hash_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __cairn-hash_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __cairn-hash_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__cairn-hash_tokens -p)
    if test -z "$(__cairn-hash_tokens -t)"
        set -l index (count (__cairn-hash_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'cairn-hash' -f
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_positional "cairn-hash" -ge 1' -F
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash" 0 null' -s '0' -l 'null' -d 'Paths read from stdin are separated by NUL, as `find -print0` writes them.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash" all-files' -l 'all-files' -d 'Hash every regular file, not only the image and video types Immich accepts.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash" no-cache' -l 'no-cache' -d 'Neither read nor update the hash cache: read every file.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash" j jobs' -l 'jobs' -s 'j' -d 'Files to read at the same time (default: one per core).' -rfka ''
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_positional "cairn-hash" -eq 2' -fa 'accept-lost-mount' -d 'Accept that the volume last seen at a mount point is gone or replaced'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_positional "cairn-hash" -eq 2' -fa 'forget-mounts' -d 'Accept every volume away or replaced under each path'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_positional "cairn-hash" -eq 2' -fa 'help' -d 'Show subcommand help information.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash accept-lost-mount" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash accept-lost-mount" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash accept-lost-mount" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_positional "cairn-hash accept-lost-mount" -eq 1' -fa '(__cairn-hash_complete_directories)'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash accept-lost-mount" y yes' -l 'yes' -s 'y' -d 'Go ahead without asking on the terminal (what would be done is still said).'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash accept-lost-mount" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash accept-lost-mount" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash forget-mounts" v verbose' -l 'verbose' -s 'v' -d 'Narrate each phase and how long it took, on stderr.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash forget-mounts" q quiet' -l 'quiet' -s 'q' -d 'Print nothing on stderr but errors (no progress, no summary).'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash forget-mounts" profile' -l 'profile' -d 'Use this profile of the configuration file (as CAIRN_PROFILE does).' -rfka ''
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_positional "cairn-hash forget-mounts" -ge 1' -F
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash forget-mounts" 0 null' -s '0' -l 'null' -d 'Paths read from stdin are separated by NUL, as `find -print0` writes them.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash forget-mounts" y yes' -l 'yes' -s 'y' -d 'Go ahead without asking on the terminal (what would be done is still said).'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash forget-mounts" version' -l 'version' -d 'Show the version.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash forget-mounts" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'cairn-hash' -n '__cairn-hash_should_offer_completions_for_flags_or_options "cairn-hash help" version' -l 'version' -d 'Show the version.'
